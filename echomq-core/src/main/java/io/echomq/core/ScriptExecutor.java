package io.echomq.core;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisPipelineException;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.Assert;

/**
 * Runs {@link Script scripts} by SHA first ({@code EVALSHA}) and falls back to
 * {@code EVAL} when the server answers {@code NOSCRIPT} (after a restart, a failover or
 * {@code SCRIPT FLUSH}); {@code EVAL} also caches the body for the next call.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class ScriptExecutor {

	private final StringRedisTemplate template;

	private final LongAdder evalFallbacks = new LongAdder();

	private final LongAdder calls = new LongAdder();

	private volatile Boolean cluster;

	/**
	 * Create an executor on the given template.
	 * @param template the template whose connection factory is used
	 */
	public ScriptExecutor(StringRedisTemplate template) {
		Assert.notNull(template, "'template' must not be null");
		this.template = template;
	}

	/**
	 * Run a script.
	 * @param script the script
	 * @param keys every key the script touches, in {@code KEYS[]} order
	 * @param args the {@code ARGV[]} values
	 * @return the raw reply: nested lists of {@code byte[]} and {@code Long}
	 */
	public List<Object> execute(Script script, List<String> keys, List<String> args) {
		byte[][] keysAndArgs = encode(keys, args);
		try {
			List<Object> reply = this.template.execute(
					(RedisCallback<List<Object>>) (connection) -> run(connection, script, keys.size(), keysAndArgs));
			return (reply != null) ? reply : List.of();
		}
		catch (DataAccessException ex) {
			throw translate(script, keys, ex, null);
		}
	}

	/**
	 * Run several invocations of one script, pipelined where the connection allows it
	 * (standalone servers); in order, one by one, on a cluster.
	 * @param script the script
	 * @param invocations the keys and arguments of each call
	 * @return the raw replies, in invocation order
	 */
	public List<List<Object>> executeAll(Script script, List<Invocation> invocations) {
		if (invocations.isEmpty()) {
			return List.of();
		}
		if (invocations.size() == 1 || isCluster()) {
			List<List<Object>> replies = new ArrayList<>(invocations.size());
			for (Invocation invocation : invocations) {
				replies.add(execute(script, invocation.keys(), invocation.args()));
			}
			return replies;
		}
		List<Object> results;
		try {
			results = this.template.executePipelined((RedisCallback<Object>) (connection) -> {
				for (Invocation invocation : invocations) {
					this.calls.increment();
					connection.scriptingCommands()
						.evalSha(script.sha(), ReturnType.MULTI, invocation.keys().size(),
								encode(invocation.keys(), invocation.args()));
				}
				return null;
			}, null);
		}
		catch (RedisPipelineException ex) {
			results = ex.getPipelineResult();
		}
		List<List<Object>> replies = new ArrayList<>(invocations.size());
		for (int i = 0; i < invocations.size(); i++) {
			Object result = (i < results.size()) ? results.get(i) : null;
			Invocation invocation = invocations.get(i);
			if (result instanceof List<?> list) {
				replies.add(castList(list));
			}
			else if (result instanceof Throwable error && !isNoScript(error)) {
				throw translate(script, invocation.keys(), error,
						i + " of " + invocations.size() + " calls before it applied");
			}
			else {
				// NOSCRIPT inside the pipeline: this invocation did not run, so run it now
				replies.add(execute(script, invocation.keys(), invocation.args()));
			}
		}
		return replies;
	}

	/**
	 * Return how many times a script was sent by body after a {@code NOSCRIPT} reply.
	 * @return the number of {@code EVAL} fall-backs
	 */
	public long getEvalFallbacks() {
		return this.evalFallbacks.sum();
	}

	/**
	 * Return how many script calls were made, fall-backs not counted.
	 * @return the number of calls
	 */
	public long getCalls() {
		return this.calls.sum();
	}

	/**
	 * Return the template this executor runs on.
	 * @return the template
	 */
	public StringRedisTemplate getTemplate() {
		return this.template;
	}

	/**
	 * Return whether the connection factory talks to a cluster.
	 * @return whether this is a cluster
	 */
	public boolean isCluster() {
		Boolean result = this.cluster;
		if (result == null) {
			result = this.template.execute((RedisCallback<Boolean>) (c) -> c instanceof RedisClusterConnection);
			this.cluster = result;
		}
		return Boolean.TRUE.equals(result);
	}

	private List<Object> run(RedisConnection connection, Script script, int numKeys, byte[][] keysAndArgs) {
		this.calls.increment();
		Object reply;
		try {
			reply = connection.scriptingCommands().evalSha(script.sha(), ReturnType.MULTI, numKeys, keysAndArgs);
		}
		catch (DataAccessException ex) {
			if (!isNoScript(ex)) {
				throw ex;
			}
			this.evalFallbacks.increment();
			reply = connection.scriptingCommands()
				.eval(script.body().getBytes(StandardCharsets.UTF_8), ReturnType.MULTI, numKeys, keysAndArgs);
		}
		return (reply instanceof List<?> list) ? castList(list) : List.of();
	}

	@SuppressWarnings("unchecked")
	private static List<Object> castList(List<?> list) {
		return (List<Object>) list;
	}

	private static RuntimeException translate(Script script, List<String> keys, Throwable error,
			@Nullable String progress) {
		if (contains(error, "OOM ")) {
			ServerOutOfMemoryException translated = new ServerOutOfMemoryException(script.name(),
					keys.isEmpty() ? "?" : keys.get(0), error);
			if (progress != null) {
				translated.addSuppressed(new IllegalStateException("Pipelined: " + progress));
			}
			return translated;
		}
		String wrongType = find(error, "EMQKEYTYPE ");
		if (wrongType != null) {
			return new WrongKeyTypeException(script.name(), wrongType, error);
		}
		if (error instanceof RuntimeException runtime) {
			return runtime;
		}
		return new RedisSystemException("EchoMQ '" + script.name() + "' failed: " + error.getMessage(), error);
	}

	static boolean isNoScript(Throwable ex) {
		return contains(ex, "NOSCRIPT");
	}

	private static boolean contains(Throwable ex, String text) {
		return find(ex, text) != null;
	}

	/**
	 * Return the text after {@code marker} in the first message of the cause chain that
	 * holds it, up to the first {@code ;} (scripts end their errors with
	 * {@code ; nothing was written} and the server appends the script's name).
	 */
	private static @Nullable String find(Throwable ex, String marker) {
		Throwable current = ex;
		while (current != null) {
			String message = current.getMessage();
			int start = (message != null) ? message.indexOf(marker) : -1;
			if (start >= 0) {
				int end = message.indexOf(';', start);
				return message.substring(start + marker.length(), (end < 0) ? message.length() : end).strip();
			}
			if (current.getCause() == current) {
				break;
			}
			current = current.getCause();
		}
		return null;
	}

	private static byte[][] encode(List<String> keys, List<String> args) {
		byte[][] result = new byte[keys.size() + args.size()][];
		int i = 0;
		for (String key : keys) {
			result[i++] = key.getBytes(StandardCharsets.UTF_8);
		}
		for (String arg : args) {
			result[i++] = arg.getBytes(StandardCharsets.UTF_8);
		}
		return result;
	}

	/**
	 * One call of a script: its keys and arguments.
	 *
	 * @param keys the keys, in {@code KEYS[]} order
	 * @param args the arguments, in {@code ARGV[]} order
	 */
	public record Invocation(List<String> keys, List<String> args) {

	}

}
