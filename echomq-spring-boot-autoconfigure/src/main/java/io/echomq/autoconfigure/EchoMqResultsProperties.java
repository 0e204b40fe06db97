package io.echomq.autoconfigure;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Job results ({@code echomq.results.*}): the value a handler method returns, stored by
 * its completion.
 *
 * @param maxSize Largest serialized result; a larger one fails the attempt, never
 * truncated.
 * @param ttl How long a queue that retains no completed jobs keeps a result after the
 * completion; {@code echomq.queues.<queue>.results.ttl} overrides it per queue.
 * @author EchoMQ
 * @since 0.2.0
 */
public record EchoMqResultsProperties(@DefaultValue("64KB") DataSize maxSize, @DefaultValue("10m") Duration ttl) {

	/**
	 * Validate the properties.
	 * @param maxSize The largest result.
	 * @param ttl How long a result is kept without retention.
	 */
	public EchoMqResultsProperties {
		if (maxSize.toBytes() <= 0) {
			throw new IllegalArgumentException("echomq.results.max-size must be positive, was " + maxSize);
		}
		Checks.positive("echomq.results.ttl", ttl);
	}

	/**
	 * Return the defaults: 64 KB, 10 minutes.
	 * @return the defaults
	 */
	public static EchoMqResultsProperties defaults() {
		return new EchoMqResultsProperties(DataSize.ofKilobytes(64), Duration.ofMinutes(10));
	}

	/**
	 * One queue's result settings ({@code echomq.queues.<queue>.results.*}).
	 *
	 * @param ttl How long the queue keeps a result when it retains no completed jobs;
	 * unset inherits {@code echomq.results.ttl}.
	 */
	public record Queue(@Nullable Duration ttl) {

		/**
		 * Validate the settings.
		 * @param ttl How long a result is kept.
		 */
		public Queue {
			if (ttl != null) {
				Checks.positive("echomq.queues.*.results.ttl", ttl);
			}
		}

	}

}
