package io.echomq.autoconfigure;

import io.lettuce.core.cluster.ClusterClientOptions;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Auto-configuration of what EchoMQ needs on a Redis Cluster connection: Lettuce's
 * topology refresh, so that a queue whose master fails over resumes on the promoted
 * replica with the settings a user gets, and a start-up check that a cluster connection
 * has it.
 *
 * @author EchoMQ
 * @since 0.1.0
 * @see ClusterTopologyRefreshCustomizer
 * @see ClusterTopologyRefreshCheck
 */
@AutoConfiguration(before = DataRedisAutoConfiguration.class)
@ConditionalOnClass({ LettuceConnectionFactory.class, ClusterClientOptions.class,
		LettuceClientOptionsBuilderCustomizer.class })
@ConditionalOnBooleanProperty(name = "echomq.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "echomq.cluster.topology-refresh.enabled", matchIfMissing = true)
@EnableConfigurationProperties(EchoMqClusterProperties.class)
public final class EchoMqClusterAutoConfiguration {

	@Bean
	ClusterTopologyRefreshCustomizer echoMqClusterTopologyRefreshCustomizer(Environment environment) {
		return ClusterTopologyRefreshCustomizer.of(environment);
	}

	@Bean
	ClusterTopologyRefreshCheck echoMqClusterTopologyRefreshCheck(
			ObjectProvider<RedisConnectionFactory> connectionFactory) {
		return new ClusterTopologyRefreshCheck(connectionFactory);
	}

}
