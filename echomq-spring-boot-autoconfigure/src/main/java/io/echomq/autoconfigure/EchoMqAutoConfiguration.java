package io.echomq.autoconfigure;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import io.echomq.ControlListener;
import io.echomq.EchoMqAdmin;
import io.echomq.EchoMqTemplate;
import io.echomq.core.EchoMqEngine;
import io.echomq.core.EchoMqNode;
import io.echomq.core.EnqueueInterceptor;
import io.echomq.core.FlowLimits;
import io.echomq.core.Keyspace;
import io.echomq.core.QueuePartitioning;
import io.echomq.core.QueuePartitions;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.PartitionCountCheck;
import io.echomq.core.internal.ScriptExecutor;
import io.echomq.crypto.QueueEncryption;
import io.echomq.inspect.BatchView;
import io.echomq.inspect.FlowTree;
import io.echomq.inspect.QueueAuditor;
import io.echomq.inspect.QueueBacklogs;
import io.echomq.inspect.QueueInspector;
import io.echomq.inspect.QueueNodes;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.listener.QueueListenerContainer;
import io.echomq.support.JacksonPayloadConverter;
import io.echomq.support.PayloadConverter;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisOperations;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Auto-configuration for the EchoMQ engine, producer and admin.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
@AutoConfiguration(after = DataRedisAutoConfiguration.class,
		afterName = "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration")
@ConditionalOnClass({ RedisOperations.class, JsonMapper.class })
@ConditionalOnBean(RedisConnectionFactory.class)
@ConditionalOnBooleanProperty(name = "echomq.enabled", matchIfMissing = true)
@EnableConfigurationProperties(EchoMqProperties.class)
@Import({ EchoMqAnnotationDrivenConfiguration.class, EchoMqEncryptionConfiguration.class })
public final class EchoMqAutoConfiguration {

	@Bean
	static UnknownPropertiesCheck echoMqUnknownPropertiesCheck() {
		return new UnknownPropertiesCheck();
	}

	@Bean
	@ConditionalOnMissingBean
	Keyspace echoMqKeyspace(EchoMqProperties properties) {
		return new Keyspace(properties.keyPrefix());
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnSingleCandidate(RedisConnectionFactory.class)
	EchoMqEngine echoMqEngine(RedisConnectionFactory connectionFactory, Keyspace keyspace,
			EchoMqProperties properties) {
		Engine jobs = new Engine(new ScriptExecutor(new StringRedisTemplate(connectionFactory)), keyspace);
		jobs.results().maxBytes(properties.results().maxSize().toBytes());
		jobs.results().ttl(properties.results().ttl());
		properties.queues().forEach((queue, overrides) -> {
			EchoMqQueueProperties.RetentionProperties retention = overrides.retention();
			if (retention != null) {
				jobs.upkeep().retain(queue, retention.completedRetention(), retention.deadRetention());
			}
			EchoMqResultsProperties.Queue results = overrides.results();
			if (results != null && results.ttl() != null) {
				jobs.results().ttl(queue, results.ttl());
			}
			if (overrides.expiry() != null) {
				jobs.enqueues().setDefaultExpiry(queue, overrides.expiry());
			}
			EchoMqEventsProperties events = overrides.events();
			if (events != null && events.enabled()) {
				// each partition writes the stream of its own slot
				int partitions = (overrides.partitions() != null) ? overrides.partitions() : 1;
				QueuePartitions.of(queue, partitions)
					.names()
					.forEach((name) -> jobs.events().enable(name, events.maxLength()));
			}
		});
		return jobs;
	}

	@Bean
	@ConditionalOnMissingBean
	EchoMqNode echoMqNode(Environment environment) {
		return EchoMqNode.local(environment.getProperty("spring.application.name"));
	}

	@Bean
	@ConditionalOnMissingBean
	PayloadConverter echoMqPayloadConverter(ObjectProvider<JsonMapper> jsonMapper) {
		return new JacksonPayloadConverter(jsonMapper.getIfAvailable(() -> JsonMapper.builder().build()));
	}

	@Bean
	@ConditionalOnMissingBean
	EchoMqTemplate echoMqTemplate(EchoMqEngine engine, PayloadConverter payloadConverter, EchoMqProperties properties,
			ObjectProvider<EnqueueInterceptor> interceptors, QueuePartitioning partitioning,
			ObjectProvider<QueueEncryption> encryption) {
		EchoMqTemplate template = new EchoMqTemplate(engine, payloadConverter, properties.maxPayloadSize().toBytes(),
				(queue) -> defaultMaxAttempts(properties, queue), interceptors.orderedStream().toList());
		template.setEnqueueAfterCommit(properties.template().enqueueAfterCommit());
		template.setPartitioning(partitioning);
		template.setEncryption(encryption.getIfUnique(QueueEncryption::none));
		ScriptExecutor executor = Engine.of(engine).executor();
		properties.queues().forEach((queue, overrides) -> {
			if (overrides.durability() != null) {
				refuseOnCluster(executor, queue);
				template.setDurability(queue, overrides.durability().toDurability());
			}
		});
		return template;
	}

	@Bean
	@ConditionalOnMissingBean
	EchoMqAdmin echoMqAdmin(EchoMqEngine engine, QueuePartitioning partitioning,
			ObjectProvider<ControlListener> controlListeners, ObjectProvider<EchoJobListenerRegistry> listeners) {
		EchoMqAdmin admin = new EchoMqAdmin(engine);
		admin.setPartitioning(partitioning);
		admin.setControlListeners(controlListeners.orderedStream().toList());
		// what the limits' read shows as configured: this application's listener of the
		// queue
		admin.setConfiguredLimits((queue) -> {
			QueueListenerContainer container = container(listeners, queue);
			return (container != null) ? container.getSettings().limits() : FlowLimits.none();
		}, (queue) -> {
			QueueListenerContainer container = container(listeners, queue);
			return (container != null) ? container.getSettings().concurrency() : null;
		});
		return admin;
	}

	private static @Nullable QueueListenerContainer container(ObjectProvider<EchoJobListenerRegistry> listeners,
			String queue) {
		EchoJobListenerRegistry registry = listeners.getIfAvailable();
		return (registry != null) ? registry.getContainer(queue) : null;
	}

	@Bean
	@ConditionalOnMissingBean
	QueuePartitioning echoMqQueuePartitioning(EchoMqProperties properties) {
		Map<String, Integer> counts = new LinkedHashMap<>();
		properties.queues().forEach((queue, overrides) -> {
			if (overrides.partitions() != null) {
				counts.put(queue, overrides.partitions());
			}
		});
		return QueuePartitioning.of(counts);
	}

	@Bean
	@ConditionalOnMissingBean
	PartitionCountVerifier echoMqPartitionCountVerifier(EchoMqEngine engine, QueuePartitioning partitioning,
			EchoMqProperties properties, ObjectProvider<EchoJobListenerRegistry> registry,
			ObjectProvider<EchoMqTemplate> template) {
		Set<String> configured = new LinkedHashSet<>();
		properties.queues().forEach((queue, overrides) -> {
			if (overrides.partitions() != null) {
				configured.add(queue);
			}
		});
		return new PartitionCountVerifier(new PartitionCountCheck(engine.keyspace(), Engine.of(engine).executor()),
				partitioning, configured, registry, template);
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnSingleCandidate(RedisConnectionFactory.class)
	EvictionPolicyCheck echoMqEvictionPolicyCheck(RedisConnectionFactory connectionFactory) {
		return new EvictionPolicyCheck(new StringRedisTemplate(connectionFactory));
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnSingleCandidate(RedisConnectionFactory.class)
	RedisConnectionReport echoMqRedisConnectionReport(RedisConnectionFactory connectionFactory) {
		return new RedisConnectionReport(connectionFactory);
	}

	@Bean
	@ConditionalOnMissingBean
	QueueInspector echoMqQueueInspector(EchoMqEngine engine) {
		return new QueueInspector(engine);
	}

	@Bean
	@ConditionalOnMissingBean
	QueueAuditor echoMqQueueAuditor(EchoMqEngine engine) {
		return new QueueAuditor(engine);
	}

	@Bean
	@ConditionalOnMissingBean
	FlowTree echoMqFlowTree(EchoMqEngine engine) {
		return new FlowTree(engine);
	}

	@Bean
	@ConditionalOnMissingBean
	BatchView echoMqBatchView(EchoMqEngine engine) {
		return new BatchView(engine);
	}

	@Bean
	@ConditionalOnMissingBean
	QueueBacklogs echoMqQueueBacklogs(EchoMqEngine engine, QueueInspector inspector) {
		return new QueueBacklogs(engine, inspector);
	}

	@Bean
	@ConditionalOnMissingBean
	QueueNodes echoMqQueueNodes(EchoMqEngine engine) {
		return new QueueNodes(engine);
	}

	private static void refuseOnCluster(ScriptExecutor executor, String queue) {
		if (executor.getTemplate().getConnectionFactory() instanceof LettuceConnectionFactory factory
				&& factory.isClusterAware()) {
			throw new IllegalStateException("echomq.queues." + queue + ".durability (replica-acknowledged enqueue) "
					+ "is not supported on a Redis Cluster: WAIT has to follow the write on the connection to the "
					+ "master of the queue's slot. Use it with a standalone or Sentinel-managed primary.");
		}
	}

	private static int defaultMaxAttempts(EchoMqProperties properties, String queue) {
		EchoMqQueueProperties overrides = properties.queues().get(queue);
		return (overrides != null && overrides.maxAttempts() != null) ? overrides.maxAttempts()
				: properties.listener().maxAttempts();
	}

}
