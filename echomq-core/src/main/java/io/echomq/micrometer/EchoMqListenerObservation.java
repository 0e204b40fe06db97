package io.echomq.micrometer;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * Documents the observation a listener makes around each handler invocation.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public enum EchoMqListenerObservation implements ObservationDocumentation {

	/** The observation of one handler invocation. */
	LISTENER_OBSERVATION {

		@Override
		public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
			return DefaultEchoMqListenerObservationConvention.class;
		}

		@Override
		public String getPrefix() {
			return "echomq.listener";
		}

		@Override
		public KeyName[] getLowCardinalityKeyNames() {
			return ListenerLowCardinalityTags.values();
		}

		@Override
		public KeyName[] getHighCardinalityKeyNames() {
			return ListenerHighCardinalityTags.values();
		}

	};

	/**
	 * Low-cardinality keys.
	 */
	public enum ListenerLowCardinalityTags implements KeyName {

		/** The queue. */
		QUEUE {

			@Override
			public String asString() {
				return "echomq.queue";
			}

		},

		/** The listener id. */
		LISTENER_ID {

			@Override
			public String asString() {
				return "echomq.listener.id";
			}

		},

		/** Always {@code echomq}. */
		MESSAGING_SYSTEM {

			@Override
			public String asString() {
				return "messaging.system";
			}

		},

		/** Always {@code process}. */
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
	public enum ListenerHighCardinalityTags implements KeyName {

		/** The job id. */
		JOB_ID {

			@Override
			public String asString() {
				return "messaging.message.id";
			}

		},

		/** The attempt number. */
		ATTEMPT {

			@Override
			public String asString() {
				return "echomq.job.attempt";
			}

		}

	}

}
