package io.echomq.autoconfigure;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code echomq} health indicator, under {@code echomq.health}; switch it off with
 * {@code management.health.echomq.enabled=false}.
 *
 * @param deadThreshold Dead jobs in one queue at or above which the indicator is DOWN;
 * unset, dead jobs are only reported.
 * @author EchoMQ
 * @since 0.1.0
 */
@ConfigurationProperties("echomq.health")
public record EchoMqHealthProperties(@Nullable Long deadThreshold) {

	/**
	 * Validate the properties.
	 * @param deadThreshold The dead-job threshold.
	 */
	public EchoMqHealthProperties {
		if (deadThreshold != null && deadThreshold <= 0) {
			throw new IllegalArgumentException("echomq.health.dead-threshold must be positive, was " + deadThreshold);
		}
	}

}
