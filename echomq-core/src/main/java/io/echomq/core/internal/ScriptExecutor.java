package io.echomq.core.internal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.NestedMultiOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.transaction.support.TransactionSynchronizationManager;
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

	private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

	private static final long SMALL_BATCH_CHARS = 16 * 1024;

	private final StringRedisTemplate template;

	private final LongAdder evalFallbacks = new LongAdder();

	private final LongAdder calls = new LongAdder();

	private volatile Boolean cluster;

	private volatile @Nullable Shared shared;

	private final ThreadLocal<@Nullable RedisAsyncCommands<byte[], byte[]>> pinned = new ThreadLocal<>();

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
		RedisClusterAsyncCommands<byte[], byte[]> direct;
		try {
			direct = direct();
		}
		catch (DataAccessException ex) {
			// the first connection of a cluster client reads the topology: a refused
			// CLUSTER NODES fails here
			throw ScriptErrors.translate(script, keys, ex);
		}
		if (direct != null) {
			return executeDirect(direct, script, keys, args);
		}
		byte[][] keysAndArgs = encode(keys, args);
		try {
			List<Object> reply = this.template.execute(
					(RedisCallback<List<Object>>) (connection) -> run(connection, script, keys.size(), keysAndArgs));
			return (reply != null) ? reply : List.of();
		}
		catch (DataAccessException ex) {
			throw ScriptErrors.translate(script, keys, ex);
		}
	}

	/**
	 * Run several invocations of one script, pipelined where the connection allows it
	 * (Lettuce on a standalone server), else in order, one by one, stopping at the first
	 * failure. Every invocation is accounted for: one that fails does not hide what the
	 * others did, and one that meets {@code NOSCRIPT} is run again by body unless an
	 * earlier one failed.
	 * @param script the script
	 * @param invocations the keys and arguments of each call
	 * @return one outcome per invocation, in invocation order
	 */
	public List<Outcome> executeAll(Script script, List<Invocation> invocations) {
		List<Call> calls = new ArrayList<>(invocations.size());
		for (Invocation invocation : invocations) {
			calls.add(new Call(script, invocation));
		}
		return executeCalls(calls);
	}

	/**
	 * Run several script calls, of one script or several, as
	 * {@link #executeAll(Script, List)} does: pipelined in call order where the
	 * connection allows it, else one by one, stopping at the first failure; each call is
	 * still its own atomic script.
	 * @param calls the calls, in the order they are to run
	 * @return one outcome per call, in call order
	 */
	public List<Outcome> executeCalls(List<Call> calls) {
		if (calls.isEmpty()) {
			return List.of();
		}
		boolean cluster;
		RedisClusterAsyncCommands<byte[], byte[]> direct;
		try {
			cluster = isCluster();
			direct = (calls.size() > 1 && !cluster) ? direct() : null;
		}
		catch (DataAccessException ex) {
			throw ScriptErrors.translate(calls.get(0).script(), calls.get(0).invocation().keys(), ex);
		}
		if (calls.size() > 1 && !cluster) {
			List<@Nullable Outcome> pipelined = (direct != null) ? pipeline(direct, calls) : this.template
				.execute((RedisCallback<List<@Nullable Outcome>>) (connection) -> pipeline(connection, calls), true);
			if (pipelined != null && !pipelined.isEmpty()) {
				return settle(calls, pipelined);
			}
		}
		return settle(calls, new ArrayList<>(Collections.nCopies(calls.size(), null)));
	}

	/**
	 * Run work whose scripts, on this thread, all go to the given connection instead of
	 * the shared one: a {@code WAIT} proves something only about the writes of its own
	 * connection.
	 * @param <T> the work's result
	 * @param commands a standalone connection's commands, used by this thread only for
	 * the duration of the work
	 * @param work the script calls
	 * @return what the work returned
	 */
	public <T> T pinnedTo(RedisAsyncCommands<byte[], byte[]> commands, Supplier<T> work) {
		Assert.notNull(commands, "'commands' must not be null");
		RedisAsyncCommands<byte[], byte[]> previous = this.pinned.get();
		this.pinned.set(commands);
		try {
			return work.get();
		}
		finally {
			if (previous != null) {
				this.pinned.set(previous);
			}
			else {
				this.pinned.remove();
			}
		}
	}

	/**
	 * Return the timeout of one command: the connection factory's, else 60 seconds.
	 * @return the command timeout
	 */
	public Duration commandTimeout() {
		return timeout();
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

	/**
	 * Return the shared native Lettuce connection's commands when a script may be sent on
	 * them directly, else {@code null}. Going through {@code RedisTemplate.execute} costs
	 * a new {@code LettuceConnection} and a JDK proxy per call, a large part of the
	 * client's CPU per job; with a shared standalone connection (Boot's default) both are
	 * wrappers around the very connection used here. A transaction-bound connection, a
	 * pool or a cluster keeps the template path.
	 */
	private @Nullable RedisClusterAsyncCommands<byte[], byte[]> direct() {
		RedisAsyncCommands<byte[], byte[]> pinnedCommands = this.pinned.get();
		if (pinnedCommands != null) {
			return pinnedCommands;
		}
		if (!(this.template.getConnectionFactory() instanceof LettuceConnectionFactory factory)
				|| !factory.getShareNativeConnection() || TransactionSynchronizationManager.hasResource(factory)) {
			return null;
		}
		Shared current = this.shared;
		if (current != null && current.factory() == factory && current.connection().isOpen()) {
			return current.commands();
		}
		if (isCluster()) {
			return null;
		}
		Shared fresh = this.template.execute((RedisCallback<@Nullable Shared>) (connection) -> {
			if (connection.isPipelined() || connection.isQueueing()
					|| !(connection.getNativeConnection() instanceof RedisAsyncCommands<?, ?> commands)) {
				return null;
			}
			@SuppressWarnings("unchecked")
			RedisAsyncCommands<byte[], byte[]> typed = (RedisAsyncCommands<byte[], byte[]>) commands;
			return new Shared(factory, typed.getStatefulConnection(), typed);
		}, true);
		if (fresh == null || !fresh.connection().isOpen()) {
			return null;
		}
		this.shared = fresh;
		return fresh.commands();
	}

	private List<Object> executeDirect(RedisClusterAsyncCommands<byte[], byte[]> commands, Script script,
			List<String> keys, List<String> args) {
		byte[][] keyBytes = encode(keys, List.of());
		byte[][] argBytes = encode(List.of(), args);
		this.calls.increment();
		try {
			try {
				return awaitDirect(script, commands.evalsha(script.sha(), ScriptOutputType.MULTI, keyBytes, argBytes));
			}
			catch (DataAccessException ex) {
				if (!ScriptErrors.isNoScript(ex)) {
					throw ex;
				}
				this.evalFallbacks.increment();
				return awaitDirect(script, commands.eval(script.body().getBytes(StandardCharsets.UTF_8),
						ScriptOutputType.MULTI, keyBytes, argBytes));
			}
		}
		catch (DataAccessException ex) {
			throw ScriptErrors.translate(script, keys, ex);
		}
	}

	private List<Object> awaitDirect(Script script, RedisFuture<List<Object>> reply) {
		try {
			List<Object> list = reply.get(timeout().toNanos(), TimeUnit.NANOSECONDS);
			return (list != null) ? list : List.of();
		}
		catch (ExecutionException ex) {
			Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
			Exception converted = ScriptErrors.convert(cause);
			throw (converted instanceof DataAccessException dae) ? dae
					: new RedisSystemException("EchoMQ '" + script.name() + "' failed: " + cause.getMessage(), cause);
		}
		catch (TimeoutException ex) {
			throw new QueryTimeoutException(
					"EchoMQ '" + script.name() + "' got no reply within " + timeout().toMillis() + " ms", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new RedisSystemException("Interrupted waiting for EchoMQ '" + script.name() + "'", ex);
		}
	}

	private List<Object> run(RedisConnection connection, Script script, int numKeys, byte[][] keysAndArgs) {
		this.calls.increment();
		Object reply;
		try {
			reply = connection.scriptingCommands().evalSha(script.sha(), ReturnType.MULTI, numKeys, keysAndArgs);
		}
		catch (DataAccessException ex) {
			if (!ScriptErrors.isNoScript(ex)) {
				throw ex;
			}
			this.evalFallbacks.increment();
			reply = connection.scriptingCommands()
				.eval(script.body().getBytes(StandardCharsets.UTF_8), ReturnType.MULTI, numKeys, keysAndArgs);
		}
		return (reply instanceof List<?> list) ? castList(list) : List.of();
	}

	/**
	 * Send every invocation at once on the connection's native Lettuce commands and wait
	 * for each reply. Spring Data's own pipelining cannot be used here: when one
	 * pipelined command fails it reports no result for any of them, although the others
	 * applied.
	 * @return one outcome per invocation, {@code null} where it met {@code NOSCRIPT}; an
	 * empty list when the connection is not Lettuce
	 */
	private List<@Nullable Outcome> pipeline(RedisConnection connection, List<Call> calls) {
		if (!(connection.getNativeConnection() instanceof RedisClusterAsyncCommands<?, ?> commands)) {
			return List.of();
		}
		@SuppressWarnings("unchecked")
		RedisClusterAsyncCommands<byte[], byte[]> async = (RedisClusterAsyncCommands<byte[], byte[]>) commands;
		return pipeline(async, calls);
	}

	private List<@Nullable Outcome> pipeline(RedisClusterAsyncCommands<byte[], byte[]> async, List<Call> calls) {
		List<RedisFuture<List<Object>>> replies = new ArrayList<>(calls.size());
		if (async instanceof RedisAsyncCommands<byte[], byte[]> standalone && isSmall(calls)) {
			// one write and flush for the whole batch, not one per call
			List<AsyncCommand<byte[], byte[], List<Object>>> batch = new ArrayList<>(calls.size());
			for (Call call : calls) {
				this.calls.increment();
				batch.add(evalsha(call.script(), call.invocation()));
			}
			standalone.getStatefulConnection().dispatch(batch);
			replies.addAll(batch);
		}
		else {
			for (Call call : calls) {
				this.calls.increment();
				replies.add(async.evalsha(call.script().sha(), ScriptOutputType.MULTI,
						encode(call.invocation().keys(), List.of()), encode(List.of(), call.invocation().args())));
			}
		}
		long deadline = System.nanoTime() + timeout().toNanos();
		List<@Nullable Outcome> outcomes = new ArrayList<>(calls.size());
		for (int i = 0; i < replies.size(); i++) {
			outcomes.add(await(calls.get(i).script(), calls.get(i).invocation(), replies.get(i), deadline));
		}
		return outcomes;
	}

	/**
	 * Whether a batch is small enough to be dispatched as one: measured, batches of
	 * completions cost less client CPU per job that way, {@code enqueueAll}'s chunks of
	 * 200 payloads more (Lettuce encodes a dispatched batch into one buffer).
	 */
	private static boolean isSmall(List<Call> calls) {
		long chars = 0;
		for (Call call : calls) {
			Invocation invocation = call.invocation();
			for (String key : invocation.keys()) {
				chars += key.length();
			}
			for (String arg : invocation.args()) {
				chars += arg.length();
			}
			if (chars > SMALL_BATCH_CHARS) {
				return false;
			}
		}
		return true;
	}

	private static AsyncCommand<byte[], byte[], List<Object>> evalsha(Script script, Invocation invocation) {
		CommandArgs<byte[], byte[]> args = new CommandArgs<>(ByteArrayCodec.INSTANCE).add(script.sha())
			.add(invocation.keys().size());
		for (String key : invocation.keys()) {
			args.addKey(key.getBytes(StandardCharsets.UTF_8));
		}
		for (String arg : invocation.args()) {
			args.addValue(arg.getBytes(StandardCharsets.UTF_8));
		}
		return new AsyncCommand<>(
				new Command<>(CommandType.EVALSHA, new NestedMultiOutput<>(ByteArrayCodec.INSTANCE), args));
	}

	private @Nullable Outcome await(Script script, Invocation invocation, RedisFuture<List<Object>> reply,
			long deadline) {
		try {
			List<Object> list = reply.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
			return Outcome.applied((list != null) ? list : List.of());
		}
		catch (ExecutionException ex) {
			Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
			if (ScriptErrors.isNoScript(cause)) {
				return null;
			}
			RuntimeException error = ScriptErrors.translate(script, invocation.keys(), ScriptErrors.convert(cause));
			return ScriptErrors.isErrorReply(cause) ? Outcome.failed(error) : Outcome.unknown(error);
		}
		catch (TimeoutException ex) {
			return Outcome.unknown(new QueryTimeoutException(
					"EchoMQ '" + script.name() + "' got no reply within " + timeout().toMillis() + " ms", ex));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return Outcome
				.unknown(new RedisSystemException("Interrupted waiting for EchoMQ '" + script.name() + "'", ex));
		}
	}

	/**
	 * Fill in the outcomes a pipeline left open ({@code null}: not sent, or met
	 * {@code NOSCRIPT}) by running those invocations one by one, until one fails; after
	 * that the open ones are not run.
	 */
	private List<Outcome> settle(List<Call> calls, List<@Nullable Outcome> outcomes) {
		List<Outcome> settled = new ArrayList<>(calls.size());
		boolean failed = false;
		for (int i = 0; i < calls.size(); i++) {
			Outcome outcome = outcomes.get(i);
			if (outcome == null) {
				outcome = failed ? Outcome.notRun() : runOne(calls.get(i));
			}
			failed |= outcome.status() != Status.APPLIED;
			settled.add(outcome);
		}
		return settled;
	}

	private Outcome runOne(Call call) {
		try {
			return Outcome.applied(execute(call.script(), call.invocation().keys(), call.invocation().args()));
		}
		catch (RuntimeException ex) {
			return ScriptErrors.isErrorReply(ex) ? Outcome.failed(ex) : Outcome.unknown(ex);
		}
	}

	private Duration timeout() {
		if (this.template.getConnectionFactory() instanceof LettuceConnectionFactory lettuce
				&& lettuce.getTimeout() > 0) {
			return Duration.ofMillis(lettuce.getTimeout());
		}
		return DEFAULT_TIMEOUT;
	}

	@SuppressWarnings("unchecked")
	private static List<Object> castList(List<?> list) {
		return (List<Object>) list;
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
	 * The shared native connection of a factory and its asynchronous commands.
	 */
	private record Shared(LettuceConnectionFactory factory, StatefulConnection<byte[], byte[]> connection,
			RedisClusterAsyncCommands<byte[], byte[]> commands) {

	}

	/**
	 * One call of a script: its keys and arguments.
	 *
	 * @param keys the keys, in {@code KEYS[]} order
	 * @param args the arguments, in {@code ARGV[]} order
	 */
	public record Invocation(List<String> keys, List<String> args) {

	}

	/**
	 * One call of a batch that may mix scripts: the script and its keys and arguments.
	 *
	 * @param script the script
	 * @param invocation its keys and arguments
	 */
	public record Call(Script script, Invocation invocation) {

	}

	/**
	 * What became of one invocation of a batch.
	 *
	 * @param status whether it applied
	 * @param reply the raw reply when it applied, else empty
	 * @param failure why it did not apply (or may not have), {@code null} when it applied
	 * or was not run
	 */
	public record Outcome(Status status, List<Object> reply, @Nullable RuntimeException failure) {

		static Outcome applied(List<Object> reply) {
			return new Outcome(Status.APPLIED, reply, null);
		}

		static Outcome failed(RuntimeException failure) {
			return new Outcome(Status.FAILED, List.of(), failure);
		}

		static Outcome unknown(RuntimeException failure) {
			return new Outcome(Status.UNKNOWN, List.of(), failure);
		}

		static Outcome notRun() {
			return new Outcome(Status.NOT_RUN, List.of(), null);
		}

	}

	/**
	 * Whether an invocation of a batch applied.
	 */
	public enum Status {

		/** The script ran to its reply. */
		APPLIED,

		/**
		 * The server answered with an error (such as {@code OOM}); a script raises its
		 * errors before its first write, so nothing of this invocation was written.
		 */
		FAILED,

		/**
		 * No answer came (a timeout, a lost connection): the invocation may or may not
		 * have applied.
		 */
		UNKNOWN,

		/** Not run, because an earlier invocation of the batch failed. */
		NOT_RUN

	}

}
