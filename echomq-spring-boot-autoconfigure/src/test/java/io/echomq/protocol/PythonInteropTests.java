package io.echomq.protocol;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import io.echomq.EchoMqTemplate;
import io.echomq.annotation.EchoJob;
import io.echomq.core.EngineServer;
import io.echomq.core.EnqueueOptions;
import io.echomq.core.JobId;
import io.echomq.core.Keyspace;
import io.echomq.core.QueuePartitions;
import io.echomq.core.internal.ProtocolManifest;
import io.echomq.listener.JobContext;
import io.echomq.listener.ListenerTestSupport;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.connection.DataType;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * The Python client and Java in one application's configuration, on Valkey, Redis and a
 * cluster: one Python process per server ({@code python_interop.py}) enqueues 10,000 jobs
 * to a partitioned queue that a Java {@code @EchoJob} listener handles (each once) and
 * awaits 100 of their results, enqueues a flow across two queues, reads jobs the Java
 * template enqueued, and gets the Java checks' errors for bad input with nothing written.
 *
 * @author EchoMQ
 */
@Timeout(240)
@ParameterizedClass(name = "on {0}")
@EnumSource(names = { "VALKEY", "REDIS", "CLUSTER" })
class PythonInteropTests {

	private static final Path SCRIPTS = Path.of("../echomq-core/src/main/resources/io/echomq/core/scripts");

	private static final int JOBS = 10_000;

	private static final Map<String, String> JAVA_TYPES = Map.of("InvalidQueueNameError", "InvalidQueueNameException",
			"InvalidJobIdError", "InvalidJobIdException", "InvalidArgumentError", "IllegalArgumentException");

	private static String python;

	@TempDir
	static Path protocol;

	@Parameter
	EngineServer server;

	private final String prefix = ListenerTestSupport.uniquePrefix();

	@BeforeAll
	static void findPythonAndWriteTheProtocol() throws Exception {
		python = PythonClientTests.findPython();
		ProtocolManifest.main(new String[] { SCRIPTS.toString(), protocol.toString() });
	}

	@Test
	void pythonAndJavaShareQueuesJobsResultsAndErrors() throws Exception {
		this.server.unavailability().ifPresent(Assumptions::abort);
		EngineServer.Target target = this.server.target();
		String[] address = target.arguments();
		List<String> connection = "cluster".equals(address[0])
				? List.of("spring.data.redis.cluster.nodes=" + address[1])
				: List.of("spring.data.redis.host=" + address[1].substring(0, address[1].lastIndexOf(':')),
						"spring.data.redis.port=" + address[1].substring(address[1].lastIndexOf(':') + 1));
		LettuceConnectionFactory factory = target.connect();
		try {
			StringRedisTemplate redis = new StringRedisTemplate(factory);
			ListenerTestSupport.runner(connection, this.prefix)
				.withBean(Handlers.class, Handlers::new)
				.withPropertyValues("echomq.queues.py-many.partitions=4")
				.run((context) -> {
					EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
					Handlers handlers = context.getBean(Handlers.class);
					JobId delayed = template.enqueue("py-read", new Request("sku-9", 9),
							EnqueueOptions.delayed(Duration.ofHours(1)).withMaxAttempts(5));
					JobId completed = template.enqueue("py-read", new Request("sku-4", 4));
					template.enqueue("py-bad", new Request("untouched", 1),
							EnqueueOptions.delayed(Duration.ofHours(1)));
					Map<String, String> bad = snapshot(redis, "py-bad");
					PythonClientTests.Output output = PythonClientTests.runWith(python,
							new ClassPathResource("python_interop.py", PythonInteropTests.class).getFile().toString(),
							address[0], address[1], this.prefix, protocol.toString(), delayed.toString(),
							completed.toString());
					assertThat(output.status()).as(output.text()).isZero();
					Map<String, List<String>> lines = output.text()
						.lines()
						.collect(Collectors.groupingBy((line) -> line.split(" ", 2)[0]));
					assertThat(lines).as(output.text()).containsKey("DONE");
					assertPartitions(lines);
					assertManyHandledOnceWithResults(lines, handlers);
					assertReadFromPython(lines);
					assertFlow(lines, handlers);
					assertErrors(lines, template);
					assertThat(snapshot(redis, "py-bad")).isEqualTo(bad);
					assertThat(redis.keys(this.prefix + ":*")).allSatisfy((key) -> assertThat(tag(key))
						.matches("py-many(#\\d(\\.\\d+)?)?|py-read|py-bad|py-flow|py-flow-other|"));
				});
		}
		finally {
			factory.destroy();
		}
	}

	private static void assertPartitions(Map<String, List<String>> lines) {
		QueuePartitions partitions = QueuePartitions.of("py-many", 4);
		assertThat(lines.get("PARTITIONS")).containsExactly("PARTITIONS " + String.join(" ", partitions.names()));
		assertThat(lines.get("KEYPART")).hasSize(3).allSatisfy((line) -> {
			String[] parts = line.split(" ", 3);
			assertThat(Integer.parseInt(parts[1])).as(parts[2]).isEqualTo(partitions.partitionForKey(parts[2]));
		});
		JobId keyed = JobId.parse(lines.get("KEYED").get(0).split(" ")[1]);
		assertThat(keyed.partition()).isEqualTo(partitions.partitionForKey("customer-1"));
	}

	private static void assertManyHandledOnceWithResults(Map<String, List<String>> lines, Handlers handlers) {
		List<JobId> ids = Arrays.stream(lines.get("IDS").get(0).split(" ")).skip(1).map(JobId::parse).toList();
		assertThat(ids).hasSize(JOBS).doesNotHaveDuplicates();
		Map<Integer, Long> perPartition = ids.stream()
			.collect(Collectors.groupingBy(JobId::partition, TreeMap::new, Collectors.counting()));
		assertThat(perPartition).containsOnlyKeys(0, 1, 2, 3)
			.allSatisfy((partition, count) -> assertThat(count).isEqualTo(JOBS / 4));
		await().atMost(Duration.ofSeconds(120)).until(() -> handlers.many.size() >= JOBS + 1);
		assertThat(handlers.many.keySet()).containsAll(ids).hasSize(JOBS + 1);
		assertThat(handlers.many.values()).allSatisfy((times) -> assertThat(times.get()).isOne());
		List<String> results = lines.get("RESULT");
		assertThat(results).hasSize(100);
		for (int n = 0; n < 100; n++) {
			assertThat(results.get(n))
				.isEqualTo("RESULT " + ids.get(n) + " {\"n\":" + n + ",\"doubled\":" + (2 * n) + "}");
		}
	}

	private static void assertReadFromPython(Map<String, List<String>> lines) {
		assertThat(lines.get("READ")).containsExactly("READ schedule 5 {\"sku\":\"sku-9\",\"quantity\":9}");
		assertThat(lines.get("AWAITED")).containsExactly("AWAITED {\"sku\":\"sku-4\",\"cents\":40}");
		assertThat(lines.get("READ-COMPLETED"))
			.containsExactly("READ-COMPLETED completed {\"sku\":\"sku-4\",\"cents\":40}");
		assertThat(lines.get("READ-NONE")).containsExactly("READ-NONE None");
	}

	private static void assertFlow(Map<String, List<String>> lines, Handlers handlers) {
		String[] flow = lines.get("FLOW").get(0).split(" ");
		assertThat(lines.get("FLOW-RESULT")).containsExactly("FLOW-RESULT {\"name\":\"parent-done\"}");
		assertThat(handlers.flow).hasSize(3);
		assertThat(handlers.flow.get(2)).isEqualTo("py-flow " + flow[1] + " parent");
		assertThat(handlers.flow.subList(0, 2)).containsExactlyInAnyOrder("py-flow " + flow[2] + " near",
				"py-flow-other " + flow[3] + " far");
	}

	private static void assertErrors(Map<String, List<String>> lines, EchoMqTemplate template) {
		Map<String, String> errors = new HashMap<>();
		lines.get("ERROR").forEach((line) -> {
			String[] parts = line.split(" ", 3);
			errors.put(parts[1], parts[2]);
		});
		Map<String, ThrowingCallable> java = new HashMap<>();
		java.put("queue-name", () -> template.enqueue("bad q", "x"));
		java.put("queue-long", () -> template.enqueue("q".repeat(65), "x"));
		java.put("queue-hash", () -> template.enqueue("py-bad#1", "x"));
		java.put("lane", () -> template.enqueue("py-bad", "x", EnqueueOptions.defaults().withLane("a:b")));
		java.put("lane-long",
				() -> template.enqueue("py-bad", "x", EnqueueOptions.defaults().withLane("l".repeat(65))));
		java.put("id-short", () -> JobId.parse("JOB123"));
		java.put("id-digit", () -> JobId.parse("JOB" + "!".repeat(22)));
		java.put("id-brand", () -> JobId.parse("ABC" + "0".repeat(22)));
		java.put("max-attempts", () -> template.enqueue("py-bad", "x", EnqueueOptions.defaults().withMaxAttempts(0)));
		java.put("delay", () -> template.enqueue("py-bad", "x", EnqueueOptions.delayed(Duration.ofMillis(-5))));
		java.put("unique-name",
				() -> template.enqueueUnique("py-bad", "x", EnqueueOptions.defaults().withUniqueKey("a b")));
		java.put("throttle-window", () -> template.enqueueUnique("py-bad", "x",
				EnqueueOptions.defaults().withThrottle("k", Duration.ZERO)));
		java.put("partition-key",
				() -> template.enqueue("py-bad", "x", EnqueueOptions.defaults().withPartitionKey("")));
		java.forEach((name, call) -> {
			Throwable expected = catchThrowable(call);
			assertThat(expected).as(name).isNotNull();
			String pythonError = errors.get(name);
			assertThat(pythonError).as(name).isNotNull();
			String type = pythonError.substring(0, pythonError.indexOf(' '));
			assertThat(JAVA_TYPES.get(type)).as(name + ": " + pythonError)
				.isEqualTo(expected.getClass().getSimpleName());
			assertThat(pythonError.substring(type.length() + 1)).as(name).isEqualTo(expected.getMessage());
		});
		assertThat(errors.get("queue-type"))
			.startsWith("InvalidQueueNameError Invalid EchoMQ queue name: must be a string");
		assertThat(errors.get("payload-type")).startsWith("InvalidArgumentError payload must be a string");
		assertThat(errors.get("priority-type")).isEqualTo("InvalidArgumentError priority must be an integer, was str");
		assertThat(errors.get("option")).startsWith("TypeError").contains("'colour'");
		assertThat(errors.get("script-id")).isEqualTo("ProtocolError EMQARG");
		assertThat(errors).hasSize(java.size() + 5);
	}

	/**
	 * The keys of a queue, each with its type and content.
	 */
	private Map<String, String> snapshot(StringRedisTemplate redis, String queue) {
		Map<String, String> keys = new TreeMap<>();
		for (String key : redis.keys(new Keyspace(this.prefix).queueKey(queue, "*"))) {
			DataType type = redis.type(key);
			Object content = switch (type) {
				case STRING -> redis.opsForValue().get(key);
				case HASH -> new TreeMap<>(redis.opsForHash().entries(key));
				case ZSET -> redis.opsForZSet().rangeWithScores(key, 0, -1);
				case LIST -> redis.opsForList().range(key, 0, -1);
				case SET -> new TreeMap<>(Map.of("members", Set.copyOf(redis.opsForSet().members(key))));
				default -> type.code();
			};
			keys.put(key, type.code() + " " + content);
		}
		assertThat(keys).isNotEmpty();
		return keys;
	}

	private static String tag(String key) {
		int open = key.indexOf('{');
		int close = key.indexOf('}', open + 1);
		return (open < 0 || close < 0) ? "" : key.substring(open + 1, close);
	}

	static class Handlers {

		final Map<JobId, AtomicInteger> many = new ConcurrentHashMap<>();

		final List<String> flow = new CopyOnWriteArrayList<>();

		@EchoJob(queue = "py-many", concurrency = "8")
		Doubled many(JobContext context, Numbered numbered) {
			this.many.computeIfAbsent(context.id(), (id) -> new AtomicInteger()).incrementAndGet();
			return new Doubled(numbered.n(), 2 * numbered.n());
		}

		@EchoJob(queue = "py-read")
		Quote read(Request request) {
			return new Quote(request.sku(), request.quantity() * 10);
		}

		@EchoJob(queue = "py-flow")
		Step flow(JobContext context, Step step) {
			this.flow.add("py-flow " + context.id() + " " + step.name());
			return new Step(step.name() + "-done");
		}

		@EchoJob(queue = "py-flow-other")
		Step other(JobContext context, Step step) {
			this.flow.add("py-flow-other " + context.id() + " " + step.name());
			return new Step(step.name() + "-done");
		}

	}

	record Numbered(int n) {
	}

	record Doubled(int n, int doubled) {
	}

	record Request(String sku, int quantity) {
	}

	record Quote(String sku, int cents) {
	}

	record Step(String name) {
	}

}
