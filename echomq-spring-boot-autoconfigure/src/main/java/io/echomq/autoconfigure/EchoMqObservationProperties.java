package io.echomq.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Micrometer Observation switches of EchoMQ, under {@code echomq}: off by default, as in
 * spring-kafka.
 *
 * @param listener Listener observation.
 * @param template Template observation.
 * @author EchoMQ
 * @since 0.1.0
 */
@ConfigurationProperties("echomq")
public record EchoMqObservationProperties(@DefaultValue Listener listener, @DefaultValue Template template) {

	/**
	 * Listener observation.
	 *
	 * @param observationEnabled Whether every handler invocation is observed, continuing
	 * the trace the producer stored on the job.
	 */
	public record Listener(@DefaultValue("false") boolean observationEnabled) {

	}

	/**
	 * Template observation.
	 *
	 * @param observationEnabled Whether every enqueue call is observed and the trace
	 * context stored on the job rows.
	 */
	public record Template(@DefaultValue("false") boolean observationEnabled) {

	}

}
