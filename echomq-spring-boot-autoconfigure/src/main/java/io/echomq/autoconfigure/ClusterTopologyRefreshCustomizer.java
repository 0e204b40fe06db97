package io.echomq.autoconfigure;

import java.time.Duration;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

/**
 * Turns on Lettuce's cluster topology refresh on the cluster connection Spring Boot
 * builds from {@code spring.data.redis.cluster.*}: without it a client never learns that
 * a replica took over a failed master, and the queues (or partitions) whose slots that
 * master served stall until the application restarts.
 * <p>
 * What the user sets under {@code spring.data.redis.lettuce.cluster.refresh} wins:
 * {@code period} replaces the {@linkplain #DEFAULT_PERIOD default period},
 * {@code adaptive=false} leaves the adaptive triggers off, and
 * {@code dynamic-refresh-sources} is kept as Boot applies it. A
 * {@link LettuceClientOptionsBuilderCustomizer} of the application runs after this one
 * (this one has order 0), so it can replace the refresh options altogether.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class ClusterTopologyRefreshCustomizer implements LettuceClientOptionsBuilderCustomizer, Ordered {

	/**
	 * The periodic refresh when {@code spring.data.redis.lettuce.cluster.refresh.period}
	 * is unset. A failed master's partitions resume at most this long after the cluster
	 * promoted its replica; each refresh opens a short connection to every node (with
	 * Boot's default dynamic refresh sources).
	 */
	public static final Duration DEFAULT_PERIOD = Duration.ofSeconds(1);

	/**
	 * The shortest time between two adaptive refreshes (Lettuce's default is 30 s, so a
	 * refresh triggered before the replica is promoted would hold back the next one that
	 * long). Boot has no property for it.
	 */
	public static final Duration ADAPTIVE_TIMEOUT = Duration.ofSeconds(1);

	private static final String REFRESH = "spring.data.redis.lettuce.cluster.refresh.";

	private final @Nullable Duration period;

	private final @Nullable Boolean adaptive;

	private final boolean dynamicRefreshSources;

	/**
	 * Create a customizer with what the user set.
	 * @param period {@code spring.data.redis.lettuce.cluster.refresh.period}, or
	 * {@code null} if unset
	 * @param adaptive {@code spring.data.redis.lettuce.cluster.refresh.adaptive}, or
	 * {@code null} if unset
	 * @param dynamicRefreshSources
	 * {@code spring.data.redis.lettuce.cluster.refresh.dynamic-refresh-sources}
	 */
	public ClusterTopologyRefreshCustomizer(@Nullable Duration period, @Nullable Boolean adaptive,
			boolean dynamicRefreshSources) {
		this.period = period;
		this.adaptive = adaptive;
		this.dynamicRefreshSources = dynamicRefreshSources;
	}

	/**
	 * Create a customizer with what the environment sets under
	 * {@code spring.data.redis.lettuce.cluster.refresh}.
	 * @param environment the environment
	 * @return the customizer
	 */
	public static ClusterTopologyRefreshCustomizer of(Environment environment) {
		Binder binder = Binder.get(environment);
		return new ClusterTopologyRefreshCustomizer(binder.bind(REFRESH + "period", Duration.class).orElse(null),
				binder.bind(REFRESH + "adaptive", Boolean.class).orElse(null),
				binder.bind(REFRESH + "dynamic-refresh-sources", Boolean.class).orElse(true));
	}

	@Override
	public void customize(ClientOptions.Builder builder) {
		// Boot starts a cluster builder only for spring.data.redis.cluster.*
		if (builder instanceof ClusterClientOptions.Builder cluster) {
			cluster.topologyRefreshOptions(refreshOptions());
		}
	}

	/**
	 * Return the refresh options this customizer applies.
	 * @return the options
	 */
	public ClusterTopologyRefreshOptions refreshOptions() {
		ClusterTopologyRefreshOptions.Builder refresh = ClusterTopologyRefreshOptions.builder()
			.dynamicRefreshSources(this.dynamicRefreshSources)
			.enablePeriodicRefresh((this.period != null) ? this.period : DEFAULT_PERIOD)
			.adaptiveRefreshTriggersTimeout(ADAPTIVE_TIMEOUT);
		if (this.adaptive == null || this.adaptive) {
			refresh.enableAllAdaptiveRefreshTriggers();
		}
		return refresh.build();
	}

	@Override
	public int getOrder() {
		return 0;
	}

}
