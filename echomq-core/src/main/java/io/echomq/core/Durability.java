package io.echomq.core;

import java.time.Duration;

import org.springframework.util.Assert;

/**
 * How long an enqueue to a queue waits before it returns: until this many replicas have
 * acknowledged the write ({@code WAIT}), at most the timeout. Redis replication is
 * asynchronous: without it, a job the primary acknowledged is lost if the primary fails
 * before a replica has it.
 *
 * @param replicas the replicas that must acknowledge each enqueue, at least 1
 * @param timeout the longest wait; after it the enqueue throws a
 * {@link ReplicationTimeoutException} (the job stays on the primary)
 * @author EchoMQ
 * @since 0.2.0
 */
public record Durability(int replicas, Duration timeout) {

	/**
	 * Validate the settings.
	 * @param replicas the replicas that must acknowledge
	 * @param timeout the longest wait, positive
	 */
	public Durability {
		Assert.isTrue(replicas >= 1, () -> "'replicas' must be at least 1, was " + replicas);
		Assert.isTrue(timeout != null && timeout.toMillis() > 0,
				() -> "'timeout' must be at least 1 ms, was " + timeout);
	}

	/**
	 * Wait for the given number of replicas.
	 * @param replicas the replicas that must acknowledge each enqueue, at least 1
	 * @param timeout the longest wait, at least 1 ms
	 * @return the durability
	 */
	public static Durability replicas(int replicas, Duration timeout) {
		return new Durability(replicas, timeout);
	}

}
