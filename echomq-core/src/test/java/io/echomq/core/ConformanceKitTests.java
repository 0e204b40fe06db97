package io.echomq.core;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.echomq.core.internal.Script;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.DataType;
import org.springframework.data.redis.connection.stream.StreamRecords;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.ZSetOperations.TypedTuple;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the conformance kit ({@code protocol/conformance}) as another client would: each
 * case's keyspace written, its script calls sent by {@code EVALSHA} (with {@code EVAL} on
 * {@code NOSCRIPT}) on a plain connection, not through the engine, and the replies,
 * messages and keyspace afterwards compared with the case.
 *
 * @author EchoMQ
 */
@EnumSource(names = { "VALKEY", "REDIS", "CLUSTER", "EMBEDDED_REDIS" })
class ConformanceKitTests extends EngineTestSupport {

	static List<ConformanceKit.Case> cases() {
		return ConformanceKit.cases();
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("cases")
	void caseShouldConform(ConformanceKit.Case kitCase) throws Exception {
		JsonNode node = kitCase.node();
		Assumptions.assumeFalse(node.has("skip"), () -> kitCase.file() + ": " + node.path("skip").asString());
		try {
			run(node);
		}
		finally {
			this.redis.delete(keyspace().keySet());
		}
	}

	@Test
	void kitShouldCoverTheTransitionsOfTheProtocol() {
		List<String> names = cases().stream().map(ConformanceKit.Case::name).toList();
		assertThat(names).contains("enqueue-plain", "enqueue-delayed", "enqueue-priority", "enqueue-unique",
				"enqueue-lane", "enqueue-partition", "enqueue-flow-child", "claim", "complete-with-result",
				"complete-retained", "retry-backoff", "dead-letter-now", "dead-letter-last-attempt", "cancel-pending",
				"cancel-active", "await-completed", "await-dead", "error-stale-token", "error-malformed-id",
				"error-wrong-key-type", "error-bad-argument", "error-missing-key", "error-duplicate-id",
				"enqueue-events");
		assertThat(cases()).allSatisfy((kitCase) -> assertThat(kitCase.file()).isEqualTo(kitCase.name() + ".json"));
	}

	private void run(JsonNode node) throws Exception {
		ConformanceKit.Times times = new ConformanceKit.Times();
		write(ConformanceKit.keyspace(node.path("before"), this.queue));
		BlockingQueue<List<String>> published = new LinkedBlockingQueue<>();
		List<String> channels = new ArrayList<>();
		node.path("subscribe").forEach((channel) -> channels.add(ConformanceKit.bind(channel.asString(), this.queue)));
		try (Subscriber subscriber = channels.isEmpty() ? null : new Subscriber(channels, published)) {
			int i = 0;
			for (JsonNode call : node.path("calls")) {
				i++;
				String where = "call " + i + " (" + call.get("script").asString() + ")";
				Map<String, ConformanceKit.Entry> before = keyspace();
				long start = serverMillis();
				Object reply;
				String error = null;
				try {
					reply = call(call);
				}
				catch (ScriptFailure failure) {
					reply = null;
					error = failure.getMessage();
				}
				long end = serverMillis();
				times.open(call.path("time").asString("now"), start, end);
				if (call.has("error")) {
					String code = call.get("error").asString();
					if (error == null || !code.equals(ConformanceKit.errorCode(error))) {
						throw new AssertionError(where + ": expected error " + code + ", was "
								+ ((error != null) ? error : String.valueOf(reply)));
					}
					new ConformanceKit.Times().matchKeyspace(before, keyspace(), where + " (an error writes nothing)");
				}
				else {
					if (error != null) {
						throw new AssertionError(where + ": expected a reply, was error " + error);
					}
					times.match(ConformanceKit.value(call.get("reply"), this.queue), reply, where + " reply");
				}
				List<List<String>> expected = new ArrayList<>();
				call.path("published")
					.forEach((message) -> expected
						.add(List.of(ConformanceKit.bind(message.get(0).asString(), this.queue),
								ConformanceKit.bind(message.get(1).asString(), this.queue))));
				List<List<String>> got = new ArrayList<>();
				if (subscriber != null) {
					while (got.size() < expected.size()) {
						List<String> message = published.poll(5, TimeUnit.SECONDS);
						if (message == null) {
							break;
						}
						got.add(message);
					}
					published.drainTo(got);
				}
				assertThat(got).as(where + " published").containsExactlyInAnyOrderElementsOf(expected);
			}
		}
		times.matchKeyspace(ConformanceKit.keyspace(node.path("after"), this.queue), keyspace(), "after");
	}

	private Object call(JsonNode call) {
		String name = call.get("script").asString();
		Script script = Script.load(name);
		List<byte[]> keysAndArgs = new ArrayList<>();
		call.get("keys").forEach((key) -> keysAndArgs.add(bytes(ConformanceKit.bind(key.asString(), this.queue))));
		int keys = keysAndArgs.size();
		call.get("argv").forEach((arg) -> keysAndArgs.add(bytes(ConformanceKit.bind(arg.asString(), this.queue))));
		byte[][] params = keysAndArgs.toArray(byte[][]::new);
		try {
			return convert(this.redis.execute((RedisCallback<Object>) (connection) -> {
				try {
					return connection.scriptingCommands().evalSha(script.sha(), ReturnType.MULTI, keys, params);
				}
				catch (RuntimeException ex) {
					if (!String.valueOf(mostSpecificMessage(ex)).startsWith("NOSCRIPT")) {
						throw ex;
					}
					return connection.scriptingCommands().eval(bytes(script.body()), ReturnType.MULTI, keys, params);
				}
			}));
		}
		catch (RuntimeException ex) {
			throw new ScriptFailure(String.valueOf(mostSpecificMessage(ex)));
		}
	}

	private static @Nullable String mostSpecificMessage(Throwable ex) {
		Throwable cause = ex;
		while (cause.getCause() != null) {
			cause = cause.getCause();
		}
		return cause.getMessage();
	}

	private static @Nullable Object convert(@Nullable Object value) {
		if (value instanceof byte[] bytes) {
			return new String(bytes, StandardCharsets.UTF_8);
		}
		if (value instanceof List<?> list) {
			List<@Nullable Object> converted = new ArrayList<>(list.size());
			list.forEach((element) -> converted.add(convert(element)));
			return converted;
		}
		return value;
	}

	private long serverMillis() {
		Long time = this.redis
			.execute((RedisCallback<Long>) (connection) -> connection.serverCommands().time(TimeUnit.MILLISECONDS));
		assertThat(time).isNotNull();
		return time;
	}

	private void write(Map<String, ConformanceKit.Entry> keyspace) {
		keyspace.forEach((key, entry) -> {
			Object value = entry.value();
			switch (entry.type()) {
				case "hash" -> {
					Map<String, String> fields = new TreeMap<>();
					((Map<?, ?>) value).forEach((field, text) -> fields.put(field.toString(), text.toString()));
					this.redis.opsForHash().putAll(key, fields);
				}
				case "zset" -> ((List<?>) value).forEach((pair) -> this.redis.opsForZSet()
					.add(key, ((List<?>) pair).get(0).toString(),
							Double.parseDouble(((List<?>) pair).get(1).toString())));
				case "list" -> this.redis.opsForList().rightPushAll(key, strings(value));
				case "set" -> this.redis.opsForSet().add(key, strings(value).toArray(String[]::new));
				case "string" -> this.redis.opsForValue().set(key, String.valueOf(value));
				case "stream" -> ((List<?>) value).forEach((record) -> this.redis.opsForStream()
					.add(StreamRecords.newRecord()
						.in(key)
						.withId(((List<?>) record).get(0).toString())
						.ofMap((Map<?, ?>) ((List<?>) record).get(1))));
				default -> throw new IllegalArgumentException(key + ": type " + entry.type() + " cannot be written");
			}
			if (entry.ttl() != null) {
				this.redis.expire(key, entry.ttl(), TimeUnit.MILLISECONDS);
			}
		});
	}

	private static List<String> strings(@Nullable Object value) {
		return ((List<?>) value).stream().map(Object::toString).toList();
	}

	private Map<String, ConformanceKit.Entry> keyspace() {
		Map<String, ConformanceKit.Entry> keys = new TreeMap<>();
		for (String key : this.redis.keys("*{" + this.queue + "*")) {
			DataType type = this.redis.type(key);
			Object value = switch (type) {
				case HASH -> new TreeMap<>(this.redis.opsForHash().entries(key));
				case ZSET -> this.redis.opsForZSet()
					.rangeWithScores(key, 0, -1)
					.stream()
					.map((tuple) -> List.of(tuple.getValue(), score(tuple)))
					.toList();
				case LIST -> this.redis.opsForList().range(key, 0, -1);
				case SET -> new ArrayList<>(new TreeSet<>(this.redis.opsForSet().members(key)));
				case STRING -> this.redis.opsForValue().get(key);
				case STREAM -> this.redis.opsForStream()
					.range(key, Range.unbounded())
					.stream()
					.map((record) -> List.of(record.getId().getValue(), new TreeMap<>(record.getValue())))
					.toList();
				default -> null;
			};
			Long ttl = this.redis.getExpire(key, TimeUnit.MILLISECONDS);
			keys.put(key, new ConformanceKit.Entry(type.code(), value, (ttl != null && ttl >= 0) ? ttl : null));
		}
		return keys;
	}

	private static String score(TypedTuple<String> tuple) {
		double score = tuple.getScore();
		return (score == Math.rint(score) && Math.abs(score) < 1e15) ? Long.toString((long) score)
				: Double.toString(score);
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	/** A script's error reply. */
	private static final class ScriptFailure extends RuntimeException {

		ScriptFailure(String message) {
			super(message);
		}

	}

	/** A Pub/Sub connection of its own, subscribed before the first call. */
	private final class Subscriber implements AutoCloseable {

		private final Runnable client;

		private final StatefulRedisPubSubConnection<String, String> connection;

		Subscriber(List<String> channels, BlockingQueue<List<String>> published) {
			String[] arguments = ConformanceKitTests.this.engine.connectionArguments();
			if ("cluster".equals(arguments[0])) {
				RedisClusterClient cluster = RedisClusterClient.create(Arrays.stream(arguments[1].split(","))
					.map((node) -> RedisURI.create("redis://" + node))
					.toList());
				this.client = cluster::shutdown;
				this.connection = cluster.connectPubSub();
			}
			else {
				RedisClient standalone = RedisClient.create("redis://" + arguments[1]);
				this.client = standalone::shutdown;
				this.connection = standalone.connectPubSub();
			}
			this.connection.addListener(new RedisPubSubAdapter<>() {

				@Override
				public void message(String channel, String message) {
					published.add(List.of(channel, message));
				}

			});
			// returns once the server confirmed the subscription
			this.connection.sync().subscribe(channels.toArray(String[]::new));
		}

		@Override
		public void close() {
			this.connection.close();
			this.client.run();
		}

	}

}
