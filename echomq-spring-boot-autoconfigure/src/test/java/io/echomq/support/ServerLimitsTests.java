package io.echomq.support;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import io.echomq.autoconfigure.EvictionPolicyCheck;
import io.echomq.core.EngineServer;
import io.echomq.core.JobId;
import io.echomq.core.Keyspace;
import io.echomq.core.PartialEnqueueException;
import io.echomq.core.ServerOutOfMemoryException;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.KeyType;
import io.echomq.core.internal.ScriptExecutor;
import io.echomq.inspect.AuditReport;
import io.echomq.inspect.QueueAuditor;
import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.ServerOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A full server ({@code maxmemory} with {@code noeviction}) refuses enqueues with a clear
 * error and nothing written, on every supported server; an evicting policy is warned
 * about.
 * <p>
 * Every server checks the limit when a script starts, counting the memory that the
 * script's own arguments take, and refuses the script at its first write that can grow
 * memory only if it has not written yet. So a refused enqueue never wrote anything, a
 * script that started under the limit runs to its end even past it, and right after a big
 * enqueue was refused a smaller one may still fit. Runs on the servers it can configure
 * of {@link EngineServer}: Redis 6.2 (the embedded binary, always there), and Redis and
 * Valkey from {@code PATH}, which CI requires and which are skipped elsewhere when not
 * installed.
 *
 * @author EchoMQ
 */
class ServerLimitsTests {

	private static final String PAYLOAD = "x".repeat(1000);

	private TestServer server;

	private LettuceConnectionFactory connectionFactory;

	private StringRedisTemplate redis;

	private Engine jobs;

	@AfterEach
	void tearDown() throws Exception {
		if (this.connectionFactory != null) {
			this.connectionFactory.destroy();
		}
		if (this.server != null) {
			this.server.close();
		}
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(names = { "EMBEDDED_REDIS", "REDIS", "VALKEY" })
	void enqueueOnFullServerShouldFailClearlyAndWriteNothing(EngineServer kind) {
		start(kind, ServerOptions.builder().maxMemoryPolicy("noeviction").build());
		List<JobId> written = this.jobs.enqueues()
			.enqueueAll("full", Collections.nCopies(300, PAYLOAD), EnqueueSpec.defaults());
		// well over the limit, further than any request's own buffers could tip it
		setMaxMemory(usedMemory() / 2);
		Map<String, String> before = dump();
		for (int i = 0; i < 20; i++) {
			assertThatExceptionOfType(ServerOutOfMemoryException.class)
				.isThrownBy(() -> this.jobs.enqueues().enqueue("full", PAYLOAD, EnqueueSpec.defaults()))
				.withMessageContaining("'enqueue'")
				.withMessageContaining("emq:{full}:pending")
				.withMessageContaining("out of memory")
				.withMessageContaining("nothing was written");
		}
		assertThatExceptionOfType(ServerOutOfMemoryException.class).isThrownBy(() -> this.jobs.enqueues()
			.enqueueAll("full", Collections.nCopies(3 * Engine.ENQUEUE_CHUNK + 50, PAYLOAD), EnqueueSpec.defaults()));
		assertThatExceptionOfType(ServerOutOfMemoryException.class).isThrownBy(() -> this.jobs.enqueues()
			.enqueue("other", PAYLOAD, EnqueueSpec.defaults().withDelay(Duration.ofMinutes(1))));
		assertThat(dump()).as("keyspace after the refusals").isEqualTo(before);
		AuditReport report = audit("full");
		assertThat(report.violations()).isEmpty();
		assertThat(report.rows()).isEqualTo(written.size());
		setMaxMemory(0);
		JobId accepted = this.jobs.enqueues().enqueue("full", PAYLOAD, EnqueueSpec.defaults());
		assertThat(pending("full")).hasSize(written.size() + 1).contains(accepted.toString());
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(names = { "EMBEDDED_REDIS", "REDIS", "VALKEY" })
	void batchesAtTheMemoryLimitShouldReportExactlyWhatWasWritten(EngineServer kind) {
		start(kind, ServerOptions.builder().maxMemory("3mb").maxMemoryPolicy("noeviction").build());
		// three pipelined script calls per batch: at the limit some of a batch may apply
		List<String> batch = Collections.nCopies(2 * Engine.ENQUEUE_CHUNK + 50, PAYLOAD.substring(0, 500));
		Set<String> reported = new HashSet<>();
		int refusals = 0;
		for (int i = 0; i < 200 && refusals < 5; i++) {
			try {
				this.jobs.enqueues()
					.enqueueAll("edge", batch, EnqueueSpec.defaults())
					.forEach((id) -> reported.add(id.toString()));
			}
			catch (PartialEnqueueException ex) {
				refusals++;
				assertThat(ex.getCause()).isInstanceOf(ServerOutOfMemoryException.class);
				assertThat(ex.getUnknown()).isEmpty();
				assertThat(ex.getEnqueued()).isNotEmpty().hasSizeLessThan(batch.size());
				assertThat(ex.getMessage()).contains("'edge'")
					.contains(ex.getEnqueued().size() + " of " + batch.size() + " jobs were enqueued")
					.contains("out of memory");
				ex.getEnqueued().forEach((id) -> reported.add(id.toString()));
			}
			catch (ServerOutOfMemoryException ex) {
				refusals++;
			}
		}
		assertThat(refusals).as("the server filled up").isPositive();
		assertThat(pending("edge")).isEqualTo(reported);
		AuditReport report = audit("edge");
		assertThat(report.violations()).isEmpty();
		assertThat(report.rows()).isEqualTo(reported.size());
	}

	@Test
	void evictionPolicyCheckShouldWarnUnlessNoeviction() {
		// any server this machine has
		this.server = TestRedisServer
			.startOwned(ServerOptions.builder().maxMemory("3mb").maxMemoryPolicy("noeviction").build());
		connect();
		EvictionPolicyCheck check = new EvictionPolicyCheck(this.redis);
		assertThat(check.check()).isEmpty();
		this.redis.execute((RedisCallback<Void>) (connection) -> {
			connection.serverCommands().setConfig("maxmemory-policy", "allkeys-lru");
			return null;
		});
		assertThat(check.check())
			.hasValueSatisfying((warning) -> assertThat(warning).contains("'allkeys-lru'").contains("noeviction"));
	}

	private void start(EngineServer kind, ServerOptions options) {
		this.server = kind.start(options);
		connect();
	}

	private void connect() {
		this.connectionFactory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(this.server.host(), this.server.port()));
		this.connectionFactory.afterPropertiesSet();
		this.connectionFactory.start();
		this.redis = new StringRedisTemplate(this.connectionFactory);
		this.jobs = new Engine(new ScriptExecutor(this.redis), Keyspace.defaults());
	}

	private AuditReport audit(String queue) {
		return new QueueAuditor(this.jobs).audit(queue, Duration.ofSeconds(5));
	}

	private Set<String> pending(String queue) {
		Set<String> ids = this.redis.opsForZSet()
			.range(Keyspace.defaults().queueKey(queue, KeyType.PENDING.suffix()), 0, -1);
		return (ids != null) ? ids : Set.of();
	}

	private long usedMemory() {
		String info = this.redis.execute((RedisCallback<String>) (
				connection) -> connection.serverCommands().info("memory").getProperty("used_memory"));
		return Long.parseLong(info);
	}

	private void setMaxMemory(long bytes) {
		this.redis.execute((RedisCallback<Void>) (connection) -> {
			connection.serverCommands().setConfig("maxmemory", Long.toString(bytes));
			return null;
		});
	}

	/**
	 * Return every key with its {@code DUMP}, to tell whether anything at all changed.
	 */
	private Map<String, String> dump() {
		return this.redis.execute((RedisCallback<Map<String, String>>) (connection) -> {
			Map<String, String> dump = new TreeMap<>();
			for (byte[] key : keys(connection)) {
				byte[] value = connection.keyCommands().dump(key);
				dump.put(new String(key, StandardCharsets.UTF_8),
						(value != null) ? HexFormat.of().formatHex(value) : "");
			}
			return dump;
		});
	}

	private static Set<byte[]> keys(RedisConnection connection) {
		Set<byte[]> keys = connection.keyCommands().keys("*".getBytes(StandardCharsets.UTF_8));
		return (keys != null) ? keys : Set.of();
	}

}
