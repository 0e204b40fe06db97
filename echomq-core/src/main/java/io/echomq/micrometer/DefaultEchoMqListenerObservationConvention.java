package io.echomq.micrometer;

import io.echomq.micrometer.EchoMqListenerObservation.ListenerHighCardinalityTags;
import io.echomq.micrometer.EchoMqListenerObservation.ListenerLowCardinalityTags;
import io.micrometer.common.KeyValues;

/**
 * The default {@link EchoMqListenerObservationConvention}: queue, listener id and the
 * OpenTelemetry messaging keys as low-cardinality values, job id and attempt as
 * high-cardinality ones; contextual name {@code <queue> process}.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class DefaultEchoMqListenerObservationConvention implements EchoMqListenerObservationConvention {

	/** A shared instance. */
	public static final DefaultEchoMqListenerObservationConvention INSTANCE = new DefaultEchoMqListenerObservationConvention();

	@Override
	public KeyValues getLowCardinalityKeyValues(JobReceiverContext context) {
		return KeyValues.of(ListenerLowCardinalityTags.QUEUE.withValue(context.getQueue()),
				ListenerLowCardinalityTags.LISTENER_ID.withValue(context.getListenerId()),
				ListenerLowCardinalityTags.MESSAGING_SYSTEM.withValue("echomq"),
				ListenerLowCardinalityTags.MESSAGING_OPERATION.withValue("process"),
				ListenerLowCardinalityTags.MESSAGING_DESTINATION_NAME.withValue(context.getQueue()));
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(JobReceiverContext context) {
		return KeyValues.of(ListenerHighCardinalityTags.JOB_ID.withValue(context.getJob().id().toString()),
				ListenerHighCardinalityTags.ATTEMPT.withValue(Long.toString(context.getJob().attempt())));
	}

	@Override
	public String getContextualName(JobReceiverContext context) {
		return context.getQueue() + " process";
	}

}
