package io.echomq.micrometer;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.echomq.schedule.ScheduleFire;
import io.echomq.schedule.ScheduleFireListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter.MeterProvider;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Counts the occurrences of recurring schedules this node enqueued:
 * {@code echomq.schedule.fires}, tagged {@code queue} and {@code schedule}. Summed over
 * the nodes, it is one per fire time plus the triggers.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class EchoMqScheduleMetrics implements MeterBinder, ScheduleFireListener {

	/** The counter's name. */
	public static final String FIRES = "echomq.schedule.fires";

	private final List<MeterProvider<Counter>> fires = new CopyOnWriteArrayList<>();

	@Override
	public void bindTo(MeterRegistry registry) {
		this.fires.add(Counter.builder(FIRES)
			.description("Occurrences of recurring schedules enqueued by this node")
			.baseUnit(BaseUnits.TASKS)
			.withRegistry(registry));
	}

	@Override
	public void fired(ScheduleFire fire) {
		for (MeterProvider<Counter> counter : this.fires) {
			counter.withTags("queue", fire.queue(), "schedule", fire.name()).increment();
		}
	}

}
