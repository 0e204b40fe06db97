package io.echomq.micrometer;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;

import io.echomq.ControlListener;
import io.echomq.core.CancelResult;
import io.echomq.core.JobId;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter.MeterProvider;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;

/**
 * Counts the cancels, pauses and resumes made through the admin:
 * {@code echomq.jobs.cancelled} tagged {@code queue} and {@code outcome} =
 * {@code cancelled|requested|not_found|refused} (one per cancel call, as its
 * {@link CancelResult.Outcome}), and {@code echomq.queue.pauses} tagged {@code queue} and
 * {@code action} = {@code pause|resume} (calls that changed the flag).
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class EchoMqControlMetrics implements MeterBinder, ControlListener {

	private final List<Meters> bound = new CopyOnWriteArrayList<>();

	@Override
	public void bindTo(MeterRegistry registry) {
		this.bound.add(new Meters(registry));
	}

	@Override
	public void onCancel(String queue, JobId id, CancelResult result) {
		String outcome = result.outcome().name().toLowerCase(Locale.ROOT);
		for (Meters meters : this.bound) {
			meters.cancelled.withTags("queue", queue, "outcome", outcome).increment();
		}
	}

	@Override
	public void onPause(String queue, @Nullable Duration duration, boolean changed) {
		if (changed) {
			this.bound.forEach((meters) -> meters.pauses.withTags("queue", queue, "action", "pause").increment());
		}
	}

	@Override
	public void onResume(String queue, boolean changed) {
		if (changed) {
			this.bound.forEach((meters) -> meters.pauses.withTags("queue", queue, "action", "resume").increment());
		}
	}

	private static final class Meters {

		final MeterProvider<Counter> cancelled;

		final MeterProvider<Counter> pauses;

		Meters(MeterRegistry registry) {
			this.cancelled = Counter.builder("echomq.jobs.cancelled")
				.description("Cancel calls made through the admin, by what each did")
				.baseUnit(BaseUnits.TASKS)
				.withRegistry(registry);
			this.pauses = Counter.builder("echomq.queue.pauses")
				.description("Cluster-wide pauses and resumes made through the admin")
				.baseUnit(BaseUnits.OPERATIONS)
				.withRegistry(registry);
		}

	}

}
