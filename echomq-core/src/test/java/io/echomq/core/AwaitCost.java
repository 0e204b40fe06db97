package io.echomq.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.FencingToken;
import io.echomq.core.internal.KeyType;
import io.echomq.core.internal.ScriptExecutor;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

/**
 * The server cost of {@code complete_all} (64 jobs a call) without and with waiters, from
 * {@code INFO commandstats}: run by hand against a server of your own, {@code host port}.
 *
 * @author EchoMQ
 */
public final class AwaitCost {

	private AwaitCost() {
	}

	/**
	 * Measure.
	 * @param args host, port
	 * @throws Exception on failure
	 */
	public static void main(String[] args) throws Exception {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(args[0], Integer.parseInt(args[1])));
		factory.afterPropertiesSet();
		factory.start();
		StringRedisTemplate redis = new StringRedisTemplate(factory);
		Engine jobs = new Engine(new ScriptExecutor(new StringRedisTemplate(factory)), Keyspace.defaults());
		RedisMessageListenerContainer container = new RedisMessageListenerContainer();
		container.setConnectionFactory(factory);
		container.afterPropertiesSet();
		container.start();
		try {
			for (int round = 0; round < 3; round++) {
				for (String mode : List.of("none", "awaited")) {
					String queue = "cost-" + mode + "-" + round;
					if (mode.equals("awaited")) {
						container.addMessageListener((message, pattern) -> {
						}, new ChannelTopic(Keyspace.defaults().queueKey(queue, KeyType.DONE)));
					}
					List<String> batch = new ArrayList<>();
					for (int i = 0; i < 64 * 50; i++) {
						batch.add("p");
					}
					jobs.enqueues().enqueueAll(queue, batch, EnqueueSpec.defaults());
					List<List<ClaimedJob>> claims = new ArrayList<>();
					for (int call = 0; call < 50; call++) {
						List<ClaimedJob> claimed = jobs.claims().claim(queue, Duration.ofMinutes(5), 64);
						if (mode.equals("awaited")) {
							for (ClaimedJob job : claimed) {
								redis.opsForZSet()
									.add(Keyspace.defaults().queueKey(queue, KeyType.WAITERS), job.id().toString(),
											Long.MAX_VALUE);
							}
						}
						claims.add(claimed);
					}
					redis.execute((RedisCallback<Object>) (c) -> {
						c.serverCommands().resetConfigStats();
						return null;
					});
					for (List<ClaimedJob> claimed : claims) {
						List<JobId> ids = claimed.stream().map(ClaimedJob::id).toList();
						List<FencingToken> tokens = claimed.stream().map(ClaimedJob::token).toList();
						jobs.outcomes().completeAll(queue, ids, tokens);
					}
					Properties stats = redis
						.execute((RedisCallback<Properties>) (c) -> c.serverCommands().info("commandstats"));
					System.out.println(mode + " round " + round + ": " + stats.getProperty("cmdstat_evalsha"));
				}
			}
		}
		finally {
			container.destroy();
			factory.destroy();
		}
	}

}
