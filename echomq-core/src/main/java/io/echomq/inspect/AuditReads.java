package io.echomq.inspect;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;

import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.DataType;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisClusterNode;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The reads the {@link QueueAuditor} makes: pipelined commands on the native connection,
 * row fields decoded, row keys scanned on the node that holds them, and the findings it
 * collects.
 *
 * @author EchoMQ
 */
final class AuditReads {

	private static final long TIMEOUT_SECONDS = 60;

	static final byte[][] ROW_FIELDS = RowSchema.FIELDS.stream()
		.map((field) -> field.getBytes(StandardCharsets.UTF_8))
		.toArray(byte[][]::new);

	private AuditReads() {
	}

	/**
	 * Send commands on the native connection without waiting for each reply (Lettuce
	 * pipelines them on the wire), then wait for all.
	 * @return each reply, or {@link Failed} for a command the server refused
	 */
	static List<@Nullable Object> async(StringRedisTemplate template,
			Function<RedisClusterAsyncCommands<byte[], byte[]>, List<RedisFuture<?>>> commands) {
		List<@Nullable Object> results = template.execute((RedisCallback<List<@Nullable Object>>) (connection) -> {
			@SuppressWarnings("unchecked")
			RedisClusterAsyncCommands<byte[], byte[]> async = (RedisClusterAsyncCommands<byte[], byte[]>) connection
				.getNativeConnection();
			List<RedisFuture<?>> futures = commands.apply(async);
			List<@Nullable Object> replies = new ArrayList<>(futures.size());
			for (RedisFuture<?> future : futures) {
				replies.add(await(future));
			}
			return replies;
		});
		return (results != null) ? results : List.of();
	}

	static @Nullable Object await(RedisFuture<?> future) {
		try {
			return future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
		}
		catch (ExecutionException ex) {
			return new Failed(String.valueOf(ex.getCause()));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new RedisSystemException("Audit interrupted", ex);
		}
		catch (TimeoutException ex) {
			throw new RedisSystemException("Audit command timed out", ex);
		}
	}

	static List<@Nullable String> values(@Nullable Object hmget) {
		List<@Nullable String> values = new ArrayList<>(ROW_FIELDS.length);
		if (hmget instanceof List<?> list) {
			for (Object entry : list) {
				KeyValue<?, ?> keyValue = (KeyValue<?, ?>) entry;
				values
					.add(keyValue.hasValue() ? new String((byte[]) keyValue.getValue(), StandardCharsets.UTF_8) : null);
			}
		}
		while (values.size() < ROW_FIELDS.length) {
			values.add(null);
		}
		return values;
	}

	static List<@Nullable String> nulls() {
		List<@Nullable String> values = new ArrayList<>(ROW_FIELDS.length);
		for (int i = 0; i < ROW_FIELDS.length; i++) {
			values.add(null);
		}
		return values;
	}

	static long serverTime(StringRedisTemplate template) {
		Long time = template.execute((RedisCallback<Long>) (connection) -> {
			if (connection instanceof RedisClusterConnection cluster) {
				return cluster.serverCommands().time();
			}
			return connection.serverCommands().time();
		});
		return (time != null) ? time : System.currentTimeMillis();
	}

	static Cursor<byte[]> scan(RedisConnection connection, String prefix, ScanOptions options) {
		if (connection instanceof RedisClusterConnection cluster) {
			byte[] key = prefix.getBytes(StandardCharsets.UTF_8);
			RedisClusterNode node = cluster.clusterGetNodeForKey(key);
			return cluster.scan(node, options);
		}
		return connection.keyCommands().scan(options);
	}

	/**
	 * Scan the keys that start with {@code prefix} and match {@code pattern} after it
	 * ({@code COUNT} {@value QueueAuditor#SCAN_COUNT}), on the node of the prefix's slot
	 * in a cluster.
	 * @param prefix the literal key prefix
	 * @param pattern the glob pattern of the rest of the key
	 * @param each takes each key found
	 */
	static void scanKeys(StringRedisTemplate template, String prefix, String pattern, Consumer<String> each) {
		ScanOptions options = ScanOptions.scanOptions()
			.match(escapeGlob(prefix) + pattern)
			.count(QueueAuditor.SCAN_COUNT)
			.build();
		template.execute((RedisCallback<Void>) (connection) -> {
			try (Cursor<byte[]> cursor = scan(connection, prefix, options)) {
				while (cursor.hasNext()) {
					each.accept(new String(cursor.next(), StandardCharsets.UTF_8));
				}
			}
			return null;
		});
	}

	static boolean expectType(StringRedisTemplate template, String key, DataType expected, String name,
			Findings findings) {
		DataType type = template.type(key);
		if (type == null || type == DataType.NONE || type == expected) {
			return true;
		}
		findings.add(key + " is a " + type.code() + ", not " + name);
		return false;
	}

	static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	static String escapeGlob(String text) {
		StringBuilder escaped = new StringBuilder(text.length() + 4);
		for (char c : text.toCharArray()) {
			if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
				escaped.append('\\');
			}
			escaped.append(c);
		}
		return escaped.toString();
	}

	/**
	 * A command the server answered with an error.
	 */
	record Failed(String error) {

	}

	/**
	 * The violations found: the first {@value QueueAuditor#MAX_LISTED} listed, all
	 * counted.
	 */
	static final class Findings {

		final List<String> listed = new ArrayList<>();

		long count;

		void add(String violation) {
			this.count++;
			if (this.listed.size() < QueueAuditor.MAX_LISTED) {
				this.listed.add(violation);
			}
		}

	}

}
