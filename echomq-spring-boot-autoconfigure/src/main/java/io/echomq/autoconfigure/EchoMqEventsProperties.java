package io.echomq.autoconfigure;

import io.echomq.core.internal.Events;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * One queue's job events ({@code echomq.queues.<queue>.events.*}): whether its
 * transitions write its event stream, which any node can listen to.
 *
 * @param enabled Whether the queue's transitions write its event stream
 * ({@code emq:{q}:events}).
 * @param maxLength About how many events the stream keeps ({@code MAXLEN ~}); older ones
 * are trimmed, and a listener that had not read them is told how many it missed.
 * @author EchoMQ
 * @since 0.2.0
 */
public record EchoMqEventsProperties(@DefaultValue("false") boolean enabled,
		@DefaultValue("" + Events.DEFAULT_MAX_LENGTH) long maxLength) {

	/**
	 * Validate the settings.
	 * @param enabled Whether events are written.
	 * @param maxLength The stream's bound.
	 */
	public EchoMqEventsProperties {
		if (maxLength < 1) {
			throw new IllegalArgumentException("echomq.queues.*.events.max-length must be positive, was " + maxLength);
		}
	}

}
