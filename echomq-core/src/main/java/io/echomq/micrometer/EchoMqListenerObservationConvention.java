package io.echomq.micrometer;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * An {@link ObservationConvention} for handler invocations; implement it as a bean to
 * replace {@link DefaultEchoMqListenerObservationConvention}.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public interface EchoMqListenerObservationConvention extends ObservationConvention<JobReceiverContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof JobReceiverContext;
	}

	@Override
	default String getName() {
		return "echomq.listener";
	}

}
