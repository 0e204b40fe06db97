package io.echomq.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import io.echomq.autoconfigure.EvictionPolicyCheck;
import io.echomq.core.AuditReport;
import io.echomq.core.EnqueueSpec;
import io.echomq.core.Jobs;
import io.echomq.core.Keyspace;
import io.echomq.core.QueueAuditor;
import io.echomq.core.ScriptExecutor;
import io.echomq.core.ServerOutOfMemoryException;
import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.ServerOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A full server ({@code maxmemory} with {@code noeviction}) refuses enqueues with a clear
 * error and nothing half-written; an evicting policy is warned about.
 *
 * @author EchoMQ
 */
class ServerLimitsTests {

	private TestServer server;

	private LettuceConnectionFactory connectionFactory;

	private Jobs jobs;

	@BeforeEach
	void setUp() {
		this.server = TestRedisServer
			.startOwned(ServerOptions.builder().maxMemory("3mb").maxMemoryPolicy("noeviction").build());
		this.connectionFactory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(this.server.host(), this.server.port()));
		this.connectionFactory.afterPropertiesSet();
		this.connectionFactory.start();
		this.jobs = new Jobs(new ScriptExecutor(new StringRedisTemplate(this.connectionFactory)), Keyspace.defaults());
	}

	@AfterEach
	void tearDown() throws Exception {
		this.connectionFactory.destroy();
		this.server.close();
	}

	@Test
	void enqueueOnFullServerShouldFailClearlyAndWriteNothing() {
		String payload = "x".repeat(1000);
		List<String> chunk = Collections.nCopies(50, payload);
		List<Integer> enqueued = new ArrayList<>();
		ServerOutOfMemoryException failure = null;
		for (int i = 0; i < 1000 && failure == null; i++) {
			try {
				enqueued.add(this.jobs.enqueueAll("full", chunk, EnqueueSpec.defaults()).size());
			}
			catch (ServerOutOfMemoryException ex) {
				failure = ex;
			}
		}
		assertThat(failure).isNotNull();
		assertThat(failure.getMessage()).contains("'enqueue'").contains("emq:{full}:pending").contains("out of memory")
			.contains("nothing was written");
		AuditReport report = new QueueAuditor(this.jobs).audit("full", Duration.ofSeconds(5));
		assertThat(report.violations()).isEmpty();
		long written = enqueued.stream().mapToLong(Integer::longValue).sum();
		assertThat(report.rows()).isEqualTo(written);
		assertThat(report.total()).isEqualTo(written);
		assertThatExceptionOfType(ServerOutOfMemoryException.class)
			.isThrownBy(() -> this.jobs.enqueue("full", payload, EnqueueSpec.defaults()));
		assertThat(new QueueAuditor(this.jobs).audit("full", Duration.ofSeconds(5)).rows()).isEqualTo(written);
	}

	@Test
	void evictionPolicyCheckShouldWarnUnlessNoeviction() {
		StringRedisTemplate template = new StringRedisTemplate(this.connectionFactory);
		EvictionPolicyCheck check = new EvictionPolicyCheck(template);
		assertThat(check.check()).isEmpty();
		template.execute((org.springframework.data.redis.core.RedisCallback<Void>) (connection) -> {
			connection.serverCommands().setConfig("maxmemory-policy", "allkeys-lru");
			return null;
		});
		assertThat(check.check()).hasValueSatisfying((warning) -> assertThat(warning).contains("'allkeys-lru'")
			.contains("noeviction"));
	}

}
