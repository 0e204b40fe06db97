package io.echomq.maintenance;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ScheduledFuture;
import java.util.function.LongSupplier;

import io.echomq.core.internal.Guard;
import org.jspecify.annotations.Nullable;

import org.springframework.scheduling.TaskScheduler;

/**
 * A task that plans its own next run: each run returns the {@link System#nanoTime()} at
 * which it wants to run again, and {@link #runBy(long)} brings a planned run forward
 * (from another thread, e.g. on a wake-up signal). One run at a time; a run asked for
 * while one is in progress follows it.
 *
 * @author EchoMQ
 */
final class WakeableTask {

	private final TaskScheduler scheduler;

	private final LongSupplier body;

	private final Duration afterFailure;

	private final Guard guard = new Guard();

	private @Nullable ScheduledFuture<?> next;

	private long nextAt;

	private boolean running;

	private long askedDuringRun;

	private boolean stopped;

	/**
	 * Create the task.
	 * @param scheduler runs it
	 * @param body one run: returns the nano time of the next
	 * @param afterFailure when to run again after a run that threw
	 */
	WakeableTask(TaskScheduler scheduler, LongSupplier body, Duration afterFailure) {
		this.scheduler = scheduler;
		this.body = body;
		this.afterFailure = afterFailure;
	}

	/**
	 * Make the next run start no later than {@code nanoTime}.
	 * @param nanoTime a {@link System#nanoTime()} value
	 */
	void runBy(long nanoTime) {
		this.guard.run(() -> {
			if (this.stopped) {
				return;
			}
			if (this.running) {
				this.askedDuringRun = Math.min(this.askedDuringRun, nanoTime);
				return;
			}
			if (this.next != null && this.nextAt - nanoTime <= 0) {
				return;
			}
			if (this.next != null) {
				this.next.cancel(false);
			}
			long delay = Math.max(0, nanoTime - System.nanoTime());
			this.nextAt = nanoTime;
			this.next = this.scheduler.schedule(this::run, Instant.now().plus(Duration.ofNanos(delay)));
		});
	}

	/**
	 * Cancel the next run; a run in progress finishes and plans none.
	 */
	void stop() {
		this.guard.run(() -> {
			this.stopped = true;
			if (this.next != null) {
				this.next.cancel(false);
				this.next = null;
			}
		});
	}

	private void run() {
		boolean started = this.guard.get(() -> {
			if (this.running || this.stopped) {
				return false;
			}
			this.running = true;
			this.next = null;
			this.askedDuringRun = Long.MAX_VALUE;
			return true;
		});
		if (!started) {
			return;
		}
		long planned = System.nanoTime() + this.afterFailure.toNanos();
		try {
			planned = this.body.getAsLong();
		}
		finally {
			long asked = this.guard.get(() -> {
				this.running = false;
				return this.askedDuringRun;
			});
			runBy((asked != Long.MAX_VALUE && asked - planned < 0) ? asked : planned);
		}
	}

}
