package io.echomq.autoconfigure;

import java.util.function.ToIntFunction;

import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.listener.QueueListenerContainer;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * The attempt budget a replayed job of a queue gets, as the {@code echomq} endpoint and
 * the dashboard give it: its listener's explicit cap, else
 * {@code echomq.queues.<queue>.max-attempts}, else {@code echomq.listener.max-attempts}.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public final class ReplayBudget implements ToIntFunction<String> {

	private final @Nullable EchoJobListenerRegistry registry;

	private final EchoMqProperties properties;

	/**
	 * Create the budget of this application's queues.
	 * @param registry the listener registry, or {@code null}
	 * @param properties the properties
	 */
	public ReplayBudget(@Nullable EchoJobListenerRegistry registry, EchoMqProperties properties) {
		Assert.notNull(properties, "'properties' must not be null");
		this.registry = registry;
		this.properties = properties;
	}

	@Override
	public int applyAsInt(String queue) {
		QueueListenerContainer container = (this.registry != null) ? this.registry.getContainer(queue) : null;
		if (container != null && container.getSettings().maxAttempts() != null) {
			return container.getSettings().maxAttempts();
		}
		EchoMqQueueProperties overrides = this.properties.queues().get(queue);
		return (overrides != null && overrides.maxAttempts() != null) ? overrides.maxAttempts()
				: this.properties.listener().maxAttempts();
	}

}
