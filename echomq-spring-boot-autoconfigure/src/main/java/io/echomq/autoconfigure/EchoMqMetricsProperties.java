package io.echomq.autoconfigure;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * EchoMQ meters, under {@code echomq.metrics}.
 *
 * @param sampleInterval Delay between two samples of the queue sizes behind the
 * echomq.queue.jobs gauges.
 * @author EchoMQ
 * @since 0.1.0
 */
@ConfigurationProperties("echomq.metrics")
public record EchoMqMetricsProperties(@DefaultValue("10s") Duration sampleInterval) {

	/**
	 * Validate the properties.
	 * @param sampleInterval The sample interval.
	 */
	public EchoMqMetricsProperties {
		if (sampleInterval == null || sampleInterval.toMillis() <= 0) {
			throw new IllegalArgumentException(
					"echomq.metrics.sample-interval must be at least 1ms, was " + sampleInterval);
		}
	}

}
