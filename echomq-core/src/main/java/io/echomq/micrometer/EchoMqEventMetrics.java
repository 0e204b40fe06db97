package io.echomq.micrometer;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.echomq.events.JobEventStreamCounters;
import io.echomq.events.JobEventStreamListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter.MeterProvider;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Counts what the job event listeners heard, as {@code echomq.events.read} and what the
 * stream's bound trimmed before they read it, as {@code echomq.events.gaps}, both tagged
 * with {@code queue} and {@code listener.id}.
 *
 * @author EchoMQ
 * @since 0.2.0
 */
public class EchoMqEventMetrics implements MeterBinder, JobEventStreamCounters {

	private final List<MeterProvider<Counter>> read = new CopyOnWriteArrayList<>();

	private final List<MeterProvider<Counter>> gaps = new CopyOnWriteArrayList<>();

	@Override
	public void bindTo(MeterRegistry registry) {
		this.read.add(Counter.builder("echomq.events.read")
			.description("Job events handed to event stream listeners")
			.baseUnit(BaseUnits.EVENTS)
			.withRegistry(registry));
		this.gaps.add(Counter.builder("echomq.events.gaps")
			.description("Job events trimmed from the stream before a listener read them")
			.baseUnit(BaseUnits.EVENTS)
			.withRegistry(registry));
	}

	@Override
	public void onRead(JobEventStreamListener listener, long count) {
		for (MeterProvider<Counter> counter : this.read) {
			counter.withTags("queue", listener.queue(), "listener.id", listener.id()).increment(count);
		}
	}

	@Override
	public void onGap(JobEventStreamListener listener, long missed) {
		for (MeterProvider<Counter> counter : this.gaps) {
			counter.withTags("queue", listener.queue(), "listener.id", listener.id()).increment(missed);
		}
	}

}
