package io.echomq.listener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.echomq.EchoMqAdmin;
import io.echomq.EchoMqEngines;
import io.echomq.EchoMqTemplate;
import io.echomq.core.EchoMqEngine;
import io.echomq.core.EngineExtension;
import io.echomq.core.EngineServer;
import io.echomq.core.JobId;
import io.echomq.core.JobState;
import io.echomq.core.ReapResult;
import io.echomq.core.internal.Engine;
import io.echomq.inspect.QueueInspector;
import io.echomq.inspect.QueueStats;
import io.echomq.support.JacksonPayloadConverter;
import io.echomq.support.PayloadConverter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a listener test class extends: a {@code @ParameterizedClass} over the servers its
 * subclass names with an {@code @EnumSource} of {@link EngineServer}, with the listener
 * built by hand as the auto-configuration builds it, without Spring Boot: an engine
 * ({@link EchoMqEngines}), a template, the container factory with short leases and a fast
 * idle wait, and containers created from {@link EchoJobListenerEndpoint endpoints}. Each
 * test has a queue of its own; its containers are stopped after it.
 *
 * @author EchoMQ
 */
@ParameterizedClass(name = "on {0}")
abstract class ContainerTestSupport {

	/**
	 * The lease of the tests' claims: renewed every third, so a lost renewal shows fast.
	 */
	static final Duration LEASE = Duration.ofMillis(900);

	/** How long a test waits for what a container does. */
	static final Duration WAIT = Duration.ofSeconds(20);

	@Parameter
	EngineServer server;

	@RegisterExtension
	final EngineExtension redis = new EngineExtension(() -> this.server, "listener-");

	final PayloadConverter converter = new JacksonPayloadConverter(JsonMapper.builder().build());

	final List<QueueListenerContainer> containers = new ArrayList<>();

	EchoMqEngine engine;

	EchoMqTemplate template;

	QueueInspector inspector;

	EchoMqAdmin admin;

	EchoJobListenerContainerFactory factory;

	String queue;

	@BeforeEach
	void buildListener() {
		this.engine = EchoMqEngines.create(this.redis.connectionFactory());
		this.template = new EchoMqTemplate(this.engine, this.converter, 1024 * 1024, (queue) -> 3, List.of());
		this.inspector = new QueueInspector(this.engine);
		this.admin = new EchoMqAdmin(this.engine);
		this.factory = new EchoJobListenerContainerFactory(this.engine);
		// retries go straight back to pending, so that no promote tick is needed
		this.factory
			.setDefaults(new ContainerDefaults(2, LEASE, new BackoffPolicy(Duration.ZERO, 1.0, Duration.ZERO, 0), true,
					Duration.ofMillis(500), Duration.ofSeconds(10)));
		this.queue = this.redis.queue();
	}

	@AfterEach
	void stopContainers() {
		this.containers.forEach(QueueListenerContainer::stop);
		this.factory.destroy();
	}

	/**
	 * Create and start a container for the test's queue, as the registry starts one.
	 * @param handler the handler
	 * @param settings the listener's own settings
	 * @return the started container
	 */
	QueueListenerContainer start(JobHandler handler, ListenerSettings settings) {
		QueueListenerContainer container = this.factory
			.createContainer(EchoJobListenerEndpoint.of(this.queue, handler, settings));
		this.containers.add(container);
		container.start();
		return container;
	}

	QueueListenerContainer start(JobHandler handler) {
		return start(handler, ListenerSettings.inherit());
	}

	QueueStats stats() {
		return this.inspector.stats(this.queue);
	}

	long counter(String name) {
		return stats().counters().getOrDefault(name, 0L);
	}

	StringRedisTemplate redis() {
		return this.redis.redis();
	}

	/**
	 * Return the lease deadline of an active job, the score of its {@code active} entry.
	 */
	Double deadline(JobId id) {
		return redis().opsForZSet()
			.score(this.redis.keyspace().locationKey(this.queue, JobState.ACTIVE), id.toString());
	}

	/**
	 * Run the reap pass that every node's maintenance runs: expired leases go back to
	 * pending.
	 */
	ReapResult reap() {
		return Engine.of(this.engine).upkeep().reap(this.queue, 100);
	}

	/**
	 * Let an active job's lease run out now, as when its worker stops renewing it, and
	 * reap it; retried until the reap finds it (a renewal may come between the two).
	 */
	boolean expireAndReap(JobId id) {
		redis().opsForZSet().add(this.redis.keyspace().locationKey(this.queue, JobState.ACTIVE), id.toString(), 1);
		return reap().requeued() == 1;
	}

	/**
	 * Assert that the queue holds nothing: every job left it through one outcome.
	 */
	void assertDrained() {
		QueueStats stats = stats();
		assertThat(stats.pending()).as("pending").isZero();
		assertThat(stats.active()).as("active").isZero();
		assertThat(stats.schedule()).as("scheduled").isZero();
	}

}
