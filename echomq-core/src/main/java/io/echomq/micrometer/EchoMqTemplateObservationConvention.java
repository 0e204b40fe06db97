package io.echomq.micrometer;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * An {@link ObservationConvention} for enqueue calls; implement it as a bean to replace
 * {@link DefaultEchoMqTemplateObservationConvention}.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public interface EchoMqTemplateObservationConvention extends ObservationConvention<JobSenderContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof JobSenderContext;
	}

	@Override
	default String getName() {
		return "echomq.template";
	}

}
