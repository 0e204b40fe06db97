package io.echomq.core;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * A uniqueness key for one enqueue: at most one job of a queue holds a given key at a
 * time, for as long as its {@link UniqueMode mode} says. The key lives in
 * {@code <prefix>:{<queue>}:unique:<name>}, a string holding the holder's job id.
 * <p>
 * A name is 1 to {@value #MAX_LENGTH} characters of {@code [A-Za-z0-9._~@/+=-]}: no
 * braces (they would change the cluster hash tag), no colons (the keyspace's separator),
 * no spaces or control characters, and short enough that a key costs little.
 *
 * @param name the key's name within the queue
 * @param mode how long the key is held
 * @param window the throttle window or the debounce delay; {@code null} for
 * {@link UniqueMode#UNTIL_DONE}
 * @author EchoMQ
 * @since 0.1.0
 */
public record UniqueKey(String name, UniqueMode mode, @Nullable Duration window) {

	/** Longest unique key name, in characters (all ASCII, so also in bytes). */
	public static final int MAX_LENGTH = 128;

	/** Longest throttle window or debounce delay. */
	public static final Duration MAX_WINDOW = Duration.ofDays(366);

	private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._~@/+=-]+");

	/**
	 * Create a unique key, validating it.
	 * @param name the key's name within the queue
	 * @param mode how long the key is held
	 * @param window the throttle window or debounce delay, at least 1 ms and at most
	 * {@link #MAX_WINDOW}; {@code null} for {@link UniqueMode#UNTIL_DONE}
	 * @throws IllegalArgumentException naming the bad value
	 */
	public UniqueKey {
		validateName(name);
		if (mode == null) {
			throw new IllegalArgumentException("Unique key '" + name + "': mode must not be null");
		}
		if (mode == UniqueMode.UNTIL_DONE) {
			if (window != null) {
				throw new IllegalArgumentException(
						"Unique key '" + name + "': mode until_done takes no window, was " + window);
			}
		}
		else if (window == null || window.toMillis() <= 0 || window.compareTo(MAX_WINDOW) > 0) {
			throw new IllegalArgumentException("Unique key '" + name + "': the " + mode.value()
					+ " window must be from 1ms to " + MAX_WINDOW + ", was " + window);
		}
	}

	/**
	 * A key held while the job exists (until it completes or dies).
	 * @param name the key's name
	 * @return the key
	 */
	public static UniqueKey untilDone(String name) {
		return new UniqueKey(name, UniqueMode.UNTIL_DONE, null);
	}

	/**
	 * A key held for a window after the enqueue.
	 * @param name the key's name
	 * @param window how long, from the enqueue (server time)
	 * @return the key
	 */
	public static UniqueKey throttle(String name, Duration window) {
		return new UniqueKey(name, UniqueMode.THROTTLE, window);
	}

	/**
	 * A key whose job runs {@code delay} after the last enqueue with that key, with the
	 * last payload.
	 * @param name the key's name
	 * @param delay how long after the last enqueue the job runs
	 * @return the key
	 */
	public static UniqueKey debounce(String name, Duration delay) {
		return new UniqueKey(name, UniqueMode.DEBOUNCE, delay);
	}

	/**
	 * Validate a unique key name.
	 * @param name the name
	 * @return the name
	 * @throws IllegalArgumentException naming the bad value
	 */
	public static String validateName(@Nullable String name) {
		if (name == null) {
			throw new IllegalArgumentException("Unique key must not be null");
		}
		if (name.isEmpty()) {
			throw new IllegalArgumentException("Unique key must not be empty");
		}
		if (name.length() > MAX_LENGTH) {
			throw new IllegalArgumentException("Unique key '" + name.substring(0, 40) + "...' is "
					+ name.getBytes(StandardCharsets.UTF_8).length + " bytes long; the limit is " + MAX_LENGTH);
		}
		if (!NAME.matcher(name).matches()) {
			throw new IllegalArgumentException("Unique key '" + name
					+ "' is invalid: only letters, digits and . _ ~ @ / + = - are allowed (no braces, colons or spaces)");
		}
		return name;
	}

}
