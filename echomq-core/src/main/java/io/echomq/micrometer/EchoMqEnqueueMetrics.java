package io.echomq.micrometer;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.echomq.core.EnqueueInterceptor;
import io.echomq.core.JobId;
import io.echomq.core.internal.Engine;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter.MeterProvider;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Counts the jobs the template wrote, as {@code echomq.jobs.enqueued} tagged with
 * {@code queue}: an {@link EnqueueInterceptor} that adds no field and counts once the
 * write succeeded.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class EchoMqEnqueueMetrics implements MeterBinder, EnqueueInterceptor {

	private final List<MeterProvider<Counter>> enqueued = new CopyOnWriteArrayList<>();

	@Override
	public void bindTo(MeterRegistry registry) {
		this.enqueued.add(Counter.builder("echomq.jobs.enqueued")
			.description("Jobs written by the template")
			.baseUnit(BaseUnits.TASKS)
			.withRegistry(registry));
	}

	@Override
	public Map<String, String> fields(String queue, Map<String, String> fields) {
		return fields;
	}

	@Override
	public void onEnqueued(String queue, List<JobId> ids) {
		for (MeterProvider<Counter> counter : this.enqueued) {
			counter.withTags("queue", queue).increment(ids.size());
		}
	}

}
