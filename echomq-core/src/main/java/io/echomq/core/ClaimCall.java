package io.echomq.core;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The keys, arguments and reply the two claim scripts share ({@code claim.lua} and
 * {@code claim_lanes.lua}, both built on {@code includes/claim_rows.lua}): each call
 * starts with the same keys and arguments, and each reply has the same shape.
 *
 * @author EchoMQ
 */
final class ClaimCall {

	/** The limit a paused queue's claim reply names. */
	private static final String PAUSED = "PAUSED";

	private ClaimCall() {
	}

	/**
	 * The keys every claim starts with: active, starts, throttled and the ring of lanes.
	 * The caller adds its own keys, then the rows, then {@link #pausedKey}.
	 */
	static List<String> keys(Keyspace keyspace, String queue, int more) {
		List<String> keys = new ArrayList<>(5 + more);
		keys.add(keyspace.queueKey(queue, KeyType.ACTIVE));
		keys.add(keyspace.queueKey(queue, KeyType.STARTS));
		keys.add(keyspace.queueKey(queue, KeyType.THROTTLED));
		keys.add(keyspace.queueKey(queue, KeyType.LANES));
		return keys;
	}

	/**
	 * The last key of every claim: the queue's cluster-wide pause flag.
	 */
	static String pausedKey(Keyspace keyspace, String queue) {
		return keyspace.queueKey(queue, KeyType.PAUSED);
	}

	/**
	 * The arguments every claim starts with: lease, most to claim, the queue's flow
	 * limits and the claiming node's name.
	 */
	static List<String> args(Duration lease, int max, FlowLimits limits, @Nullable EchoMqNode owner, int more) {
		List<String> args = new ArrayList<>(6 + more);
		args.add(Long.toString(lease.toMillis()));
		args.add(Integer.toString(max));
		addLimits(args, limits.maxActive(), limits.rateLimit());
		args.add((owner != null) ? owner.name() : "");
		return args;
	}

	/**
	 * Add a max-active cap and a rate limit as three arguments (0, 0, 1 for none).
	 */
	static void addLimits(List<String> args, @Nullable Integer maxActive, FlowLimits.@Nullable RateLimit rate) {
		args.add((maxActive != null) ? Integer.toString(maxActive) : "0");
		args.add((rate != null) ? Integer.toString(rate.limit()) : "0");
		args.add((rate != null) ? Long.toString(rate.period().toMillis()) : "1");
	}

	/**
	 * Read a claim reply.
	 */
	static Reply read(String queue, List<Object> reply) {
		Instant now = Replies.instant(reply.get(0));
		Instant deadline = Replies.instant(reply.get(1));
		List<Object> entries = Replies.list(reply.get(2));
		List<ClaimedJob> jobs = new ArrayList<>(entries.size());
		for (Object value : entries) {
			List<Object> entry = Replies.list(value);
			jobs.add(Jobs.toClaimedJob(queue, Replies.string(entry.get(0)), Replies.list(entry.get(1)), now, deadline));
		}
		return new Reply(now, jobs, Replies.reasons(reply.get(3)), Replies.string(reply.get(4)),
				Replies.number(reply.get(5)), Replies.list(reply.get(6)), Replies.number(reply.get(7)),
				Replies.number(reply.get(8)), Replies.number(reply.get(9)));
	}

	/**
	 * A claim reply.
	 *
	 * @param now the server's time
	 * @param jobs the claimed jobs
	 * @param skipped the candidates passed over, with why
	 * @param limit the limit that held the claim back ({@code ""} for none,
	 * {@code PAUSED} while the queue is paused)
	 * @param reopen the server time (ms) a rate window has room again, or the pause ends
	 * ({@code -1}: paused until resumed); 0 when not known
	 * @param hint the claim's hint ({@code claim.lua} only)
	 * @param hintFrom the hint's offset in pending
	 * @param lanes the number of lanes in the ring
	 * @param stale the lanes named that are no longer in the ring
	 * ({@code claim_lanes.lua} only)
	 */
	record Reply(Instant now, List<ClaimedJob> jobs, Map<String, String> skipped, String limit, long reopen,
			List<Object> hint, long hintFrom, long lanes, long stale) {

		boolean paused() {
			return PAUSED.equals(this.limit);
		}

		/**
		 * How long the pause lasts in ms, {@code -1} until resumed.
		 */
		long pauseLeft() {
			return (this.reopen < 0) ? -1 : this.reopen - this.now.toEpochMilli();
		}

	}

}
