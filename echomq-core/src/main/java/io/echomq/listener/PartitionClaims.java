package io.echomq.listener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import io.echomq.core.ClaimedJob;
import io.echomq.core.Jobs;
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
 * A partition whose claim fails (its master is down, failing over) is passed over; the
 * claim fails only when it got nothing and some partition failed, so the poller backs
 * off rather than spin.
 * <p>
 * Used by the poller thread only.
 *
 * @author EchoMQ
 */
final class PartitionClaims {

	private final List<String> names;

	private int next;

	PartitionClaims(QueuePartitions partitions) {
		this.names = partitions.names();
		this.next = (this.names.size() > 1) ? ThreadLocalRandom.current().nextInt(this.names.size()) : 0;
	}

	List<ClaimedJob> claim(Jobs jobs, Duration lease, int max) {
		if (this.names.size() == 1) {
			return jobs.claim(this.names.get(0), lease, max);
		}
		int start = this.next;
		this.next = (start + 1) % this.names.size();
		List<ClaimedJob> claimed = new ArrayList<>(max);
		RuntimeException failure = null;
		for (int i = 0; i < this.names.size() && claimed.size() < max; i++) {
			String partition = this.names.get((start + i) % this.names.size());
			try {
				claimed.addAll(jobs.claim(partition, lease, max - claimed.size()));
			}
			catch (RuntimeException ex) {
				// one partition's master is down or failing over: the others go on
				failure = (failure != null) ? failure : ex;
			}
		}
		if (claimed.isEmpty() && failure != null) {
			throw failure;
		}
		return claimed;
	}

	List<String> names() {
		return this.names;
	}

}
