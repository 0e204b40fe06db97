package io.echomq.maintenance.internal;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import io.echomq.support.internal.RateLimitedLog;
import org.jspecify.annotations.Nullable;

import org.springframework.core.log.LogAccessor;

/**
 * The reap or the promote tick: a pass over each queue, with the queues' due times, the
 * partitions found idle, the failures logged at a limited rate, and the counters.
 *
 * @author EchoMQ
 */
final class MaintenanceTick {

	private static final LogAccessor logger = new LogAccessor(EchoMqMaintenance.class);

	private final EchoMqMaintenance owner;

	final String name;

	private final Function<String, OptionalLong> pass;

	final Duration interval;

	final DueTimes times = new DueTimes();

	final IdlePartitions idle = new IdlePartitions();

	final RateLimitedLog failures = RateLimitedLog.growing(logger, Duration.ofSeconds(30));

	final AtomicLong count = new AtomicLong();

	volatile @Nullable Instant last;

	volatile @Nullable WakeableTask task;

	/**
	 * Create a tick.
	 * @param owner the maintenance it ticks for
	 * @param name its name in the log: {@code Reap} or {@code Promote}
	 * @param pass one pass over a queue, returning when its next member falls due
	 * @param interval how soon a queue whose pass failed is tried again
	 */
	MaintenanceTick(EchoMqMaintenance owner, String name, Function<String, OptionalLong> pass, Duration interval) {
		this.owner = owner;
		this.name = name;
		this.pass = pass;
		this.interval = interval;
	}

	/**
	 * Run a pass over every queue now.
	 */
	void tickAll() {
		boolean failed = false;
		for (String queue : this.owner.queues.get()) {
			if (this.idle.skip(queue)) {
				continue;
			}
			try {
				this.pass.apply(queue);
			}
			catch (Throwable ex) {
				failed = true;
				this.failures.warn(ex, () -> this.name + " tick failed on queue '" + queue + "'");
			}
		}
		done(failed);
	}

	/**
	 * One planned run: a pass over each queue that is due.
	 * @return when to run next
	 */
	long run() {
		long idleCheck = this.owner.settings.idleCheck().toNanos();
		long now = System.nanoTime();
		Collection<String> queues = this.owner.queues.get();
		this.times.retain(queues);
		boolean failed = false;
		for (String queue : queues) {
			if (!this.times.isDue(queue, now, this.owner.idleSlack())) {
				continue;
			}
			if (this.times.isIdleCheck(queue) && this.idle.skip(queue)) {
				this.times.plan(queue, now + idleCheck, true);
				continue;
			}
			this.times.begin(queue);
			try {
				OptionalLong next = this.pass.apply(queue);
				this.times.plan(queue, this.owner.nextPass(next, this.interval), next.isEmpty());
			}
			catch (Throwable ex) {
				failed = true;
				this.times.plan(queue, System.nanoTime() + this.interval.toNanos(), false);
				this.failures.warn(ex, () -> this.name + " tick failed on queue '" + queue + "'");
			}
		}
		done(failed);
		long after = System.nanoTime();
		return this.times.earliest(queues, after, after + idleCheck);
	}

	private void done(boolean failed) {
		this.count.incrementAndGet();
		if (failed) {
			this.owner.failedTicks.incrementAndGet();
		}
		else {
			this.last = Instant.now();
		}
	}

}
