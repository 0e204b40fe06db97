package io.echomq.micrometer;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * Documents the observation the template makes around each enqueue call.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public enum EchoMqTemplateObservation implements ObservationDocumentation {

	/** The observation of one enqueue call (one job or a batch). */
	TEMPLATE_OBSERVATION {

		@Override
		public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
			return DefaultEchoMqTemplateObservationConvention.class;
		}

		@Override
		public String getPrefix() {
			return "echomq.template";
		}

		@Override
		public KeyName[] getLowCardinalityKeyNames() {
			return TemplateLowCardinalityTags.values();
		}

		@Override
		public KeyName[] getHighCardinalityKeyNames() {
			return TemplateHighCardinalityTags.values();
		}

	};

	/**
	 * Low-cardinality keys.
	 */
	public enum TemplateLowCardinalityTags implements KeyName {

		/** The queue. */
		QUEUE {

			@Override
			public String asString() {
				return "echomq.queue";
			}

		},

		/** Always {@code echomq}. */
		MESSAGING_SYSTEM {

			@Override
			public String asString() {
				return "messaging.system";
			}

		},

		/** Always {@code publish}. */
		MESSAGING_OPERATION {

			@Override
			public String asString() {
				return "messaging.operation";
			}

		},

		/** The queue, under its OpenTelemetry name. */
		MESSAGING_DESTINATION_NAME {

			@Override
			public String asString() {
				return "messaging.destination.name";
			}

		}

	}

	/**
	 * High-cardinality keys.
	 */
	public enum TemplateHighCardinalityTags implements KeyName {

		/** The job id, when one job was enqueued. */
		JOB_ID {

			@Override
			public String asString() {
				return "messaging.message.id";
			}

		},

		/** How many jobs the call enqueued. */
		BATCH_COUNT {

			@Override
			public String asString() {
				return "messaging.batch.message_count";
			}

		}

	}

}
