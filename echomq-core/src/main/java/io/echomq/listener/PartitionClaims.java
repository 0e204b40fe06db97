package io.echomq.listener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

import io.echomq.core.ClaimResult;
import io.echomq.core.ClaimedJob;
import io.echomq.core.FlowLimits;
import io.echomq.core.Jobs;
import io.echomq.core.KeyType;
import io.echomq.core.QueuePartitions;

/**
 * Claims for one container across the partitions of its queue. Each claim starts at the
 * partition after the one the previous claim started at (the first from a random one,
 * so that containers do not line up) and moves on to the next partition only while it
 * has free slots left, so a partition that always has work cannot starve the others:
 * each one is first in turn. A claim that asks every partition and comes back short
 * lets the poller block on the wake lists, so dry partitions cost no busy loop. With one
 * partition this is exactly one {@link Jobs#claim} call, as for any queue.
 * <p>
 * A partition whose claim fails (its master is down or failing over) is marked down and
 * passed over: a probe on a thread of its own reads one of its keys, at most every
 * {@link #PROBE_INTERVAL}, and marks it up again once that succeeds. So the poller waits
 * out a dead master's command timeout once, not on every claim, and the partitions on
 * the live masters go on draining. A claim fails only when it got nothing and some
 * partition failed, so the poller backs off rather than spin.
 * <p>
 * {@link #claim} is called by the poller thread only.
 *
 * @author EchoMQ
 */
final class PartitionClaims {

	/** Least time between two probes of a partition that is down. */
	static final Duration PROBE_INTERVAL = Duration.ofMillis(500);

	private final List<String> names;

	private final boolean[] down;

	private final long[] probedAt;

	private final AtomicBoolean[] probing;

	private int next;

	PartitionClaims(QueuePartitions partitions) {
		this.names = partitions.names();
		int count = this.names.size();
		this.down = new boolean[count];
		this.probedAt = new long[count];
		this.probing = new AtomicBoolean[count];
		for (int i = 0; i < count; i++) {
			this.probing[i] = new AtomicBoolean();
		}
		this.next = (count > 1) ? ThreadLocalRandom.current().nextInt(count) : 0;
	}

	ClaimResult claim(Jobs jobs, Duration lease, int max, FlowLimits limits) {
		if (this.names.size() == 1) {
			return jobs.claim(this.names.get(0), lease, max, limits);
		}
		FlowLimits share = limits.perPartition(this.names.size());
		ClaimResult.Limit limit = null;
		Duration retryAfter = null;
		int start = this.next;
		this.next = (start + 1) % this.names.size();
		List<ClaimedJob> claimed = new ArrayList<>(max);
		RuntimeException failure = null;
		for (int i = 0; i < this.names.size() && claimed.size() < max; i++) {
			int partition = (start + i) % this.names.size();
			if (isDown(partition)) {
				probe(jobs, partition);
				continue;
			}
			try {
				ClaimResult result = jobs.claim(this.names.get(partition), lease, max - claimed.size(), share);
				claimed.addAll(result.jobs());
				if (result.isLimited()) {
					limit = result.limit();
					Duration after = result.retryAfter();
					retryAfter = (retryAfter == null || (after != null && after.compareTo(retryAfter) < 0)) ? after
							: retryAfter;
				}
			}
			catch (RuntimeException ex) {
				failure = (failure != null) ? failure : ex;
				markDown(partition);
			}
		}
		if (claimed.isEmpty() && failure != null) {
			throw failure;
		}
		return new ClaimResult(claimed, claimed.isEmpty() ? limit : null, claimed.isEmpty() ? retryAfter : null);
	}

	private boolean isDown(int partition) {
		synchronized (this.down) {
			return this.down[partition];
		}
	}

	private void markDown(int partition) {
		synchronized (this.down) {
			this.down[partition] = true;
			this.probedAt[partition] = System.nanoTime();
		}
	}

	private void probe(Jobs jobs, int partition) {
		synchronized (this.down) {
			if (System.nanoTime() - this.probedAt[partition] < PROBE_INTERVAL.toNanos()) {
				return;
			}
		}
		if (!this.probing[partition].compareAndSet(false, true)) {
			return;
		}
		String key = jobs.keyspace().queueKey(this.names.get(partition), KeyType.PENDING);
		Thread thread = new Thread(() -> {
			try {
				jobs.executor().getTemplate().hasKey(key);
				synchronized (this.down) {
					this.down[partition] = false;
				}
			}
			catch (RuntimeException ex) {
				// still down: the next claim probes again after the interval
			}
			finally {
				synchronized (this.down) {
					this.probedAt[partition] = System.nanoTime();
				}
				this.probing[partition].set(false);
			}
		}, "echomq-probe-" + this.names.get(partition));
		thread.setDaemon(true);
		thread.start();
	}

	List<String> names() {
		return this.names;
	}

}
