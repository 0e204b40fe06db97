package io.echomq.core;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.echomq.core.internal.Engine;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.ScriptExecutor;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A second JVM for the uniqueness tests: connects to the server the test names, prints
 * {@code READY}, waits for a line on standard input, then enqueues the same unique key
 * from several threads and prints one {@code RESULT <id> <outcome>} line per enqueue.
 *
 * @author EchoMQ
 */
public final class UniqueEnqueuer {

	private UniqueEnqueuer() {
	}

	/**
	 * Run the enqueues.
	 * @param args {@code standalone host:port} or {@code cluster host:port,...}, then the
	 * queue, the key, the threads and the enqueues per thread
	 * @throws Exception on any failure (the test reads the output)
	 */
	public static void main(String[] args) throws Exception {
		LettuceConnectionFactory factory = connectionFactory(args[0], args[1]);
		factory.afterPropertiesSet();
		factory.start();
		try {
			Engine jobs = new Engine(new ScriptExecutor(new StringRedisTemplate(factory)), Keyspace.defaults());
			String queue = args[2];
			EnqueueSpec spec = EnqueueSpec.defaults().withUnique(UniqueKey.untilDone(args[3]));
			int threads = Integer.parseInt(args[4]);
			int each = Integer.parseInt(args[5]);
			System.out.println("READY");
			System.out.flush();
			new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
			ExecutorService executor = Executors.newFixedThreadPool(threads);
			List<Future<List<EnqueueResult>>> futures = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				futures.add(executor.submit(() -> {
					List<EnqueueResult> results = new ArrayList<>();
					for (int i = 0; i < each; i++) {
						results.add(jobs.enqueues().enqueueUnique(queue, JobId.mint(), "child", spec));
					}
					return results;
				}));
			}
			for (Future<List<EnqueueResult>> future : futures) {
				for (EnqueueResult result : future.get()) {
					System.out.println("RESULT " + result.id() + " " + result.outcome());
				}
			}
			executor.shutdown();
			System.out.println("DONE");
			System.out.flush();
		}
		finally {
			factory.destroy();
		}
	}

	private static LettuceConnectionFactory connectionFactory(String mode, String nodes) {
		if ("cluster".equals(mode)) {
			return new LettuceConnectionFactory(new RedisClusterConfiguration(Arrays.asList(nodes.split(","))));
		}
		String[] hostPort = nodes.split(":");
		return new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(hostPort[0], Integer.parseInt(hostPort[1])));
	}

}
