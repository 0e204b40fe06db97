package io.echomq.micrometer;

import java.util.List;

import io.echomq.core.JobId;
import io.echomq.micrometer.EchoMqTemplateObservation.TemplateHighCardinalityTags;
import io.echomq.micrometer.EchoMqTemplateObservation.TemplateLowCardinalityTags;
import io.micrometer.common.KeyValues;

/**
 * The default {@link EchoMqTemplateObservationConvention}: queue and the OpenTelemetry
 * messaging keys as low-cardinality values; the job id (for a single job) and the batch
 * size as high-cardinality ones, once written; contextual name {@code <queue> publish}.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class DefaultEchoMqTemplateObservationConvention implements EchoMqTemplateObservationConvention {

	/** A shared instance. */
	public static final DefaultEchoMqTemplateObservationConvention INSTANCE = new DefaultEchoMqTemplateObservationConvention();

	@Override
	public KeyValues getLowCardinalityKeyValues(JobSenderContext context) {
		return KeyValues.of(TemplateLowCardinalityTags.QUEUE.withValue(context.getQueue()),
				TemplateLowCardinalityTags.MESSAGING_SYSTEM.withValue("echomq"),
				TemplateLowCardinalityTags.MESSAGING_OPERATION.withValue("publish"),
				TemplateLowCardinalityTags.MESSAGING_DESTINATION_NAME.withValue(context.getQueue()));
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(JobSenderContext context) {
		List<JobId> ids = context.getIds();
		KeyValues values = KeyValues.empty();
		if (ids.size() == 1) {
			values = values.and(TemplateHighCardinalityTags.JOB_ID.withValue(ids.get(0).toString()));
		}
		if (!ids.isEmpty()) {
			values = values.and(TemplateHighCardinalityTags.BATCH_COUNT.withValue(Integer.toString(ids.size())));
		}
		return values;
	}

	@Override
	public String getContextualName(JobSenderContext context) {
		return context.getQueue() + " publish";
	}

}
