package io.echomq.inspect;

import java.time.Duration;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * One node's listener of a queue, as its last beat in the queue's
 * {@linkplain io.echomq.core.internal.KeyType#NODES node registry} told it.
 * <p>
 * Stored as {@code <seen ms> <every ms> <concurrency> <state> <in-flight> <completed>
 * <retried> <dead> <stale> <listener id>}: the script prefixes the server time and the
 * interval, the rest is {@link #summary()}.
 *
 * @param node the node's name
 * @param id the listener id
 * @param concurrency how many handlers run at once
 * @param paused whether the listener is paused on its node
 * @param inFlight jobs claimed and not yet settled
 * @param completed jobs completed by it
 * @param retried failed attempts it retried
 * @param dead jobs it dead-lettered
 * @param stale jobs that lost their lease while running on it
 * @param every the most time between two beats
 * @param seen the server time of its last beat ({@link Instant#EPOCH} before it is
 * written)
 * @author EchoMQ
 * @since 0.2.0
 */
public record NodeListener(String node, String id, int concurrency, boolean paused, int inFlight, long completed,
		long retried, long dead, long stale, Duration every, Instant seen) {

	/** Beats a node may miss before its entry is dead. */
	public static final int MISSED_BEATS = 3;

	private static final int PARTS = 10;

	/**
	 * Create a listener summary, checking its values.
	 * @param node the node's name
	 * @param id the listener id
	 * @param concurrency how many handlers run at once
	 * @param paused whether the listener is paused on its node
	 * @param inFlight jobs claimed and not yet settled
	 * @param completed jobs completed by it
	 * @param retried failed attempts it retried
	 * @param dead jobs it dead-lettered
	 * @param stale jobs that lost their lease while running on it
	 * @param every the most time between two beats
	 * @param seen the server time of its last beat
	 */
	public NodeListener {
		Assert.hasText(node, "'node' must not be empty");
		Assert.hasText(id, "'id' must not be empty");
		Assert.isTrue(every.toMillis() > 0, () -> "every must be at least 1ms, was " + every);
	}

	/**
	 * Return whether the entry is alive at a server time: its last beat is at most
	 * {@value #MISSED_BEATS} intervals old.
	 * @param now the server time
	 * @return whether it is alive
	 */
	public boolean isAlive(Instant now) {
		return now.toEpochMilli() - this.seen.toEpochMilli() <= MISSED_BEATS * this.every.toMillis();
	}

	/**
	 * Return what a beat writes after the server time and the interval.
	 * @return the summary
	 */
	String summary() {
		return this.concurrency + " " + (this.paused ? "paused" : "running") + " " + this.inFlight + " "
				+ this.completed + " " + this.retried + " " + this.dead + " " + this.stale + " " + this.id;
	}

	/**
	 * Read a stored entry.
	 * @param node the node's name (the field)
	 * @param entry the entry (the value)
	 * @return the listener, or {@code null} if the entry is not one
	 */
	static @Nullable NodeListener parse(String node, String entry) {
		String[] parts = entry.split(" ", PARTS);
		if (parts.length < PARTS || node.isEmpty() || parts[PARTS - 1].isEmpty()) {
			return null;
		}
		long[] numbers = new long[PARTS - 1];
		for (int i = 0; i < PARTS - 1; i++) {
			if (i == 3) {
				continue;
			}
			Long value = RowSchema.parse(parts[i]);
			if (value == null || value < 0) {
				return null;
			}
			numbers[i] = value;
		}
		if (numbers[1] < 1 || numbers[2] > Integer.MAX_VALUE || numbers[4] > Integer.MAX_VALUE
				|| !("paused".equals(parts[3]) || "running".equals(parts[3]))) {
			return null;
		}
		return new NodeListener(node, parts[PARTS - 1], (int) numbers[2], "paused".equals(parts[3]), (int) numbers[4],
				numbers[5], numbers[6], numbers[7], numbers[8], Duration.ofMillis(numbers[1]),
				Instant.ofEpochMilli(numbers[0]));
	}

}
