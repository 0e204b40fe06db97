package io.echomq.autoconfigure;

import java.time.Duration;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions.RefreshTrigger;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link EchoMqClusterAutoConfiguration}: the client options of the connection
 * factory Boot builds. Lettuce connects lazily, so the nodes need not exist.
 *
 * @author EchoMQ
 */
class EchoMqClusterAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(DataRedisAutoConfiguration.class, EchoMqClusterAutoConfiguration.class));

	private final ApplicationContextRunner clusterRunner = this.contextRunner
		.withPropertyValues("spring.data.redis.cluster.nodes=127.0.0.1:1,127.0.0.1:2");

	@Test
	void runWithClusterNodesShouldTurnOnAdaptiveAndPeriodicRefresh() {
		this.clusterRunner.run((context) -> {
			ClusterTopologyRefreshOptions refresh = refresh(context);
			assertThat(refresh.isPeriodicRefreshEnabled()).isTrue();
			assertThat(refresh.getRefreshPeriod()).isEqualTo(Duration.ofSeconds(1));
			assertThat(refresh.getAdaptiveRefreshTriggers()).containsExactlyInAnyOrder(RefreshTrigger.values());
			assertThat(refresh.getAdaptiveRefreshTimeout()).isEqualTo(Duration.ofSeconds(1));
			assertThat(refresh.useDynamicRefreshSources()).isTrue();
			assertThat(clientOptions(context).getDisconnectedBehavior())
				.isEqualTo(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS);
		});
	}

	@Test
	void runWithRejectWhileDisconnectedTurnedOffShouldKeepLettucesDisconnectedBehavior() {
		this.clusterRunner.withPropertyValues("echomq.cluster.reject-while-disconnected=false").run((context) -> {
			assertThat(refresh(context).isPeriodicRefreshEnabled()).isTrue();
			assertThat(clientOptions(context).getDisconnectedBehavior())
				.isEqualTo(ClientOptions.DisconnectedBehavior.DEFAULT);
		});
	}

	@Test
	void runWithBootRefreshPropertiesShouldApplyThem() {
		this.clusterRunner
			.withPropertyValues("spring.data.redis.lettuce.cluster.refresh.period=30s",
					"spring.data.redis.lettuce.cluster.refresh.adaptive=false",
					"spring.data.redis.lettuce.cluster.refresh.dynamic-refresh-sources=false")
			.run((context) -> {
				ClusterTopologyRefreshOptions refresh = refresh(context);
				assertThat(refresh.getRefreshPeriod()).isEqualTo(Duration.ofSeconds(30));
				assertThat(refresh.getAdaptiveRefreshTriggers()).isEmpty();
				assertThat(refresh.useDynamicRefreshSources()).isFalse();
			});
	}

	@Test
	void runWithBootAdaptiveOnlyShouldKeepTheDefaultPeriod() {
		this.clusterRunner.withPropertyValues("spring.data.redis.lettuce.cluster.refresh.adaptive=true")
			.run((context) -> {
				ClusterTopologyRefreshOptions refresh = refresh(context);
				assertThat(refresh.getRefreshPeriod()).isEqualTo(Duration.ofSeconds(1));
				assertThat(refresh.getAdaptiveRefreshTriggers()).containsExactlyInAnyOrder(RefreshTrigger.values());
			});
	}

	@Test
	void runWithoutClusterShouldLeaveTheClientOptionsAlone() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(clientOptions(context)).isNotInstanceOf(ClusterClientOptions.class);
			assertThat(clientOptions(context).getDisconnectedBehavior())
				.isEqualTo(ClientOptions.DisconnectedBehavior.DEFAULT);
		});
	}

	@Test
	void runWhenTurnedOffShouldLeaveLettucesDefaultsAndStart() {
		this.clusterRunner.withPropertyValues("echomq.cluster.topology-refresh.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(ClusterClientOptionsCustomizer.class);
			ClusterTopologyRefreshOptions refresh = refresh(context);
			assertThat(refresh.isPeriodicRefreshEnabled()).isFalse();
			assertThat(refresh.getAdaptiveRefreshTriggers()).isEmpty();
			assertThat(clientOptions(context).getDisconnectedBehavior())
				.isEqualTo(ClientOptions.DisconnectedBehavior.DEFAULT);
		});
	}

	@Test
	void runWhenEchoMqIsDisabledShouldLeaveLettucesDefaults() {
		this.clusterRunner.withPropertyValues("echomq.enabled=false")
			.run((context) -> assertThat(refresh(context).isPeriodicRefreshEnabled()).isFalse());
	}

	@Test
	void runWithCustomizerThatTurnsRefreshOffShouldRefuseToStart() {
		assertRefusedWithoutRefresh(this.clusterRunner.withUserConfiguration(NoRefreshCustomizer.class),
				"spring.data.redis.lettuce.cluster.refresh.period", "echomq.cluster.topology-refresh.enabled=false");
	}

	@Test
	void runWithOwnClusterConnectionFactoryWithoutRefreshShouldRefuseToStart() {
		assertRefusedWithoutRefresh(this.contextRunner.withUserConfiguration(OwnClusterConnectionFactory.class));
	}

	@Test
	void runWithOwnClusterConnectionFactoryWhenTurnedOffShouldStart() {
		this.contextRunner.withUserConfiguration(OwnClusterConnectionFactory.class)
			.withPropertyValues("echomq.cluster.topology-refresh.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	private static ClientOptions clientOptions(AssertableApplicationContext context) {
		return context.getBean(LettuceConnectionFactory.class)
			.getClientConfiguration()
			.getClientOptions()
			.orElseThrow();
	}

	private static ClusterTopologyRefreshOptions refresh(AssertableApplicationContext context) {
		assertThat(context).hasNotFailed();
		return ((ClusterClientOptions) clientOptions(context)).getTopologyRefreshOptions();
	}

	private static void assertRefusedWithoutRefresh(ApplicationContextRunner runner, String... hints) {
		runner.run((context) -> {
			assertThat(context).hasFailed()
				.getFailure()
				.isInstanceOf(IllegalStateException.class)
				.hasMessageContaining("Redis Cluster connection has no topology refresh");
			for (String hint : hints) {
				assertThat(context.getStartupFailure()).hasMessageContaining(hint);
			}
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class NoRefreshCustomizer {

		@Bean
		LettuceClientOptionsBuilderCustomizer noRefresh() {
			return (builder) -> ((ClusterClientOptions.Builder) builder)
				.topologyRefreshOptions(ClusterTopologyRefreshOptions.create());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnClusterConnectionFactory {

		@Bean
		LettuceConnectionFactory clusterConnectionFactory() {
			return new LettuceConnectionFactory(new RedisClusterConfiguration(java.util.List.of("127.0.0.1:1")));
		}

	}

}
