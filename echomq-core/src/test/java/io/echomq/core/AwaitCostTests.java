package io.echomq.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.FencingToken;
import io.echomq.core.internal.KeyType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The server cost of {@code complete_all} (64 jobs a call) for jobs nobody awaits and for
 * awaited jobs (one subscriber on the done channel), from {@code INFO commandstats}
 * ({@code usec_per_call} of {@code EVALSHA}, the claims done before the stats are reset).
 * A measurement, run by hand: {@code -Dechomq.measure.await=true}; it resets the server's
 * command stats.
 *
 * @author EchoMQ
 */
@EnumSource(names = { "VALKEY" })
@EnabledIfSystemProperty(named = "echomq.measure.await", matches = "true")
class AwaitCostTests extends EngineTestSupport {

	private static final int CALLS = 50;

	private static final int BATCH = 64;

	@Test
	void completeAllCostWithAndWithoutWaiters() throws Exception {
		RedisMessageListenerContainer container = new RedisMessageListenerContainer();
		container.setConnectionFactory(this.connectionFactory);
		container.afterPropertiesSet();
		container.start();
		Map<String, List<Double>> usec = new LinkedHashMap<>();
		try {
			for (int round = 0; round < 3; round++) {
				for (String mode : List.of("no waiter", "every job awaited")) {
					String queue = this.queue + "-" + round + (mode.startsWith("no") ? "-n" : "-a");
					boolean awaited = !mode.startsWith("no");
					if (awaited) {
						container.addMessageListener((message, pattern) -> {
						}, new ChannelTopic(this.keyspace.queueKey(queue, KeyType.DONE.suffix())));
					}
					usec.computeIfAbsent(mode, (key) -> new ArrayList<>()).add(measure(queue, awaited));
				}
			}
		}
		finally {
			container.destroy();
		}
		usec.forEach((mode, figures) -> System.out.println("complete_all x" + BATCH + ", " + mode + ": usec_per_call "
				+ figures + " (per job " + figures.stream().mapToDouble((f) -> f / BATCH).min().orElse(0) + " min)"));
		assertThat(usec).hasSize(2);
	}

	private double measure(String queue, boolean awaited) {
		List<String> payloads = new ArrayList<>();
		for (int i = 0; i < BATCH * CALLS; i++) {
			payloads.add("p");
		}
		this.jobs.enqueues().enqueueAll(queue, payloads, EnqueueSpec.defaults());
		List<List<ClaimedJob>> claims = new ArrayList<>();
		for (int call = 0; call < CALLS; call++) {
			List<ClaimedJob> claimed = this.jobs.claims().claim(queue, Duration.ofMinutes(5), BATCH);
			if (awaited) {
				for (ClaimedJob job : claimed) {
					this.redis.opsForZSet()
						.add(this.keyspace.queueKey(queue, KeyType.WAITERS.suffix()), job.id().toString(),
								Long.MAX_VALUE);
				}
			}
			claims.add(claimed);
		}
		this.redis.execute((RedisCallback<Object>) (connection) -> {
			connection.serverCommands().resetConfigStats();
			return null;
		});
		for (List<ClaimedJob> claimed : claims) {
			List<JobId> ids = claimed.stream().map(ClaimedJob::id).toList();
			List<FencingToken> tokens = claimed.stream().map(ClaimedJob::token).toList();
			assertThat(this.jobs.outcomes().completeAll(queue, ids, tokens))
				.allMatch((result) -> result != null && result.isApplied());
		}
		Properties stats = this.redis
			.execute((RedisCallback<Properties>) (connection) -> connection.serverCommands().info("commandstats"));
		String evalsha = stats.getProperty("cmdstat_evalsha");
		assertThat(evalsha).contains("calls=" + CALLS + ",");
		return Double.parseDouble(evalsha.replaceAll(".*usec_per_call=([0-9.]+).*", "$1"));
	}

}
