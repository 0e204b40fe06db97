package io.echomq.benchmark;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import io.echomq.core.FlowLimits;
import io.echomq.core.Keyspace;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.ScriptExecutor;
import io.echomq.listener.EchoJobListenerContainerFactory;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.listener.ListenerSettings;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Listener containers on one rate-limited queue, each with its own connection factory,
 * engine and registry, recording the server time of every claim they start. The limiter
 * figure runs some in its own JVM and some in a child JVM started on this class; the
 * child prints {@code READY} once its containers run, stops them when its standard input
 * ends (or reads a line), and writes the start times, one per line, to the file it was
 * given.
 * <p>
 * Arguments: host, port, queue, containers, concurrency, limit, period in ms, starts
 * file.
 *
 * @author EchoMQ
 */
final class LimiterWorker implements AutoCloseable {

	private final List<LettuceConnectionFactory> connections = new ArrayList<>();

	private final List<EchoJobListenerContainerFactory> factories = new ArrayList<>();

	private final List<EchoJobListenerRegistry> registries = new ArrayList<>();

	private final List<Long> starts = Collections.synchronizedList(new ArrayList<>());

	private volatile boolean recording = true;

	LimiterWorker(String host, int port, String queue, int containers, int concurrency, FlowLimits limits) {
		for (int i = 0; i < containers; i++) {
			LettuceConnectionFactory connection = new LettuceConnectionFactory(
					new RedisStandaloneConfiguration(host, port));
			connection.afterPropertiesSet();
			connection.start();
			this.connections.add(connection);
			Engine jobs = new Engine(new ScriptExecutor(new StringRedisTemplate(connection)), Keyspace.defaults());
			EchoJobListenerContainerFactory factory = new EchoJobListenerContainerFactory(jobs);
			factory.setQueueLimits(Map.of(queue, limits));
			EchoJobListenerRegistry registry = new EchoJobListenerRegistry(factory);
			registry.start();
			registry.register(queue, (job, context) -> {
				if (this.recording) {
					this.starts.add(job.claimedAt().toEpochMilli());
				}
			}, ListenerSettings.builder().concurrency(concurrency).build());
			this.factories.add(factory);
			this.registries.add(registry);
		}
	}

	/**
	 * Stop recording: what starts from now on is not counted.
	 */
	void stopRecording() {
		this.recording = false;
	}

	/**
	 * Return the server times (ms) of the recorded starts.
	 * @return a copy
	 */
	List<Long> starts() {
		synchronized (this.starts) {
			return new ArrayList<>(this.starts);
		}
	}

	@Override
	public void close() {
		this.registries.forEach(EchoJobListenerRegistry::stop);
		this.factories.forEach(EchoJobListenerContainerFactory::destroy);
		this.connections.forEach(LettuceConnectionFactory::destroy);
	}

	public static void main(String[] args) throws IOException {
		FlowLimits limits = new FlowLimits(null,
				new FlowLimits.RateLimit(Integer.parseInt(args[5]), Duration.ofMillis(Long.parseLong(args[6]))));
		List<Long> starts;
		try (LimiterWorker worker = new LimiterWorker(args[0], Integer.parseInt(args[1]), args[2],
				Integer.parseInt(args[3]), Integer.parseInt(args[4]), limits)) {
			System.out.println("READY");
			System.out.flush();
			new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
			worker.stopRecording();
			starts = worker.starts();
		}
		List<String> lines = starts.stream().map(String::valueOf).toList();
		Files.write(Path.of(args[7]), lines, StandardCharsets.UTF_8);
		System.out.println("DONE " + lines.size());
		System.exit(0);
	}

}
