package io.echomq.micrometer;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import io.echomq.core.JobState;
import io.echomq.core.QueuePartitions;
import io.echomq.core.ReapResult;
import io.echomq.core.TransitionResult;
import io.echomq.core.internal.Engine;
import io.echomq.listener.JobEventListener;
import io.echomq.listener.ReceivedJob;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter.MeterProvider;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;

/**
 * Meters of what listener containers and the scheduler do, fed by
 * {@link JobEventListener} callbacks: the {@code echomq.jobs.*} counters and the
 * {@code echomq.job.duration} and {@code echomq.job.wait} timers, each tagged with
 * {@code queue}.
 * <p>
 * {@code echomq.job.duration} is tagged {@code outcome}: {@code success} (completed),
 * {@code retry} (failed, retried later), {@code dead} (failed, dead-lettered),
 * {@code cancelled} (the job was cancelled while it ran, its outcome discarded) or
 * {@code failure} (failed, the job left in no retry or dead location).
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class EchoMqJobMetrics implements MeterBinder, JobEventListener {

	private static final String QUEUE = "queue";

	/**
	 * When the handler on this worker thread started: a failure is reported on the thread
	 * that ran the handler, after it, and carries no duration of its own.
	 */
	private static final ThreadLocal<Long> started = new ThreadLocal<>();

	private final List<Meters> bound = new CopyOnWriteArrayList<>();

	@Override
	public void bindTo(MeterRegistry registry) {
		this.bound.add(new Meters(registry));
	}

	@Override
	public void onClaimed(ReceivedJob job, Duration wait) {
		started.set(System.nanoTime());
		each((meters) -> meters.wait.withTags(QUEUE, QueuePartitions.logicalName(job.queue())).record(wait));
	}

	@Override
	public void onCompleted(ReceivedJob job, Duration duration) {
		started.remove();
		each((meters) -> {
			meters.completed.withTags(QUEUE, QueuePartitions.logicalName(job.queue())).increment();
			meters.duration.withTags(QUEUE, QueuePartitions.logicalName(job.queue()), "outcome", "success")
				.record(duration);
		});
	}

	@Override
	public void onFailed(ReceivedJob job, Throwable error, TransitionResult result) {
		Duration duration = sinceStart();
		String outcome = outcome(result);
		String exception = error.getClass().getSimpleName();
		each((meters) -> {
			meters.failed
				.withTags(QUEUE, QueuePartitions.logicalName(job.queue()), "exception",
						exception.isEmpty() ? "none" : exception)
				.increment();
			if (outcome.equals("dead")) {
				meters.dead.withTags(QUEUE, QueuePartitions.logicalName(job.queue())).increment();
			}
			else if (outcome.equals("retry")) {
				meters.retried.withTags(QUEUE, QueuePartitions.logicalName(job.queue())).increment();
			}
			if (duration != null) {
				meters.duration.withTags(QUEUE, QueuePartitions.logicalName(job.queue()), "outcome", outcome)
					.record(duration);
			}
		});
	}

	@Override
	public void onCancelled(ReceivedJob job) {
		Duration duration = sinceStart();
		if (duration != null) {
			each((meters) -> meters.duration.withTags(QUEUE, job.queue(), "outcome", "cancelled").record(duration));
		}
	}

	@Override
	public void onStale(ReceivedJob job, TransitionResult result) {
		String reason = String.valueOf(result.reason()).toLowerCase(Locale.ROOT);
		each((meters) -> meters.stale.withTags(QUEUE, QueuePartitions.logicalName(job.queue()), "reason", reason)
			.increment());
	}

	@Override
	public void onReaped(String queue, ReapResult result) {
		each((meters) -> {
			meters.reaped.withTags(QUEUE, queue).increment(result.total());
			if (result.dead() > 0) {
				meters.dead.withTags(QUEUE, queue).increment(result.dead());
			}
		});
	}

	@Override
	public void onPromoted(String queue, int count) {
		each((meters) -> meters.promoted.withTags(QUEUE, queue).increment(count));
	}

	@Override
	public void onExpired(String queue, int count) {
		each((meters) -> meters.expired.withTags(QUEUE, QueuePartitions.logicalName(queue)).increment(count));
	}

	private static String outcome(TransitionResult result) {
		JobState state = result.state();
		if (state == JobState.DEAD) {
			return "dead";
		}
		if (state == JobState.SCHEDULE || state == JobState.PENDING) {
			return "retry";
		}
		return "failure";
	}

	private static @Nullable Duration sinceStart() {
		Long start = started.get();
		started.remove();
		return (start != null) ? Duration.ofNanos(System.nanoTime() - start) : null;
	}

	private void each(Consumer<Meters> action) {
		for (Meters meters : this.bound) {
			action.accept(meters);
		}
	}

	/**
	 * The meter providers of one registry.
	 */
	private static final class Meters {

		final MeterProvider<Counter> completed;

		final MeterProvider<Counter> failed;

		final MeterProvider<Counter> retried;

		final MeterProvider<Counter> dead;

		final MeterProvider<Counter> reaped;

		final MeterProvider<Counter> promoted;

		final MeterProvider<Counter> expired;

		final MeterProvider<Counter> stale;

		final MeterProvider<Timer> duration;

		final MeterProvider<Timer> wait;

		Meters(MeterRegistry registry) {
			this.completed = counter(registry, "echomq.jobs.completed", "Jobs whose handler returned");
			this.failed = counter(registry, "echomq.jobs.failed", "Failed attempts, by exception");
			this.retried = counter(registry, "echomq.jobs.retried", "Failed attempts scheduled for a retry");
			this.dead = counter(registry, "echomq.jobs.dead", "Jobs dead-lettered");
			this.reaped = counter(registry, "echomq.jobs.reaped", "Expired leases moved by the reaper");
			this.promoted = counter(registry, "echomq.jobs.promoted", "Scheduled jobs promoted to pending");
			this.expired = counter(registry, "echomq.jobs.expired",
					"Jobs not claimed by their deadline, moved to dead by a claim or a promotion");
			this.stale = counter(registry, "echomq.jobs.stale",
					"Jobs whose lease was lost while running here, their outcome not recorded");
			this.duration = Timer.builder("echomq.job.duration")
				.description("Time the handler of an attempt ran")
				.withRegistry(registry);
			this.wait = Timer.builder("echomq.job.wait")
				.description("Time between a job becoming claimable and being claimed")
				.withRegistry(registry);
		}

		private static MeterProvider<Counter> counter(MeterRegistry registry, String name, String description) {
			return Counter.builder(name).description(description).baseUnit(BaseUnits.TASKS).withRegistry(registry);
		}

	}

}
