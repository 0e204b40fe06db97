package io.echomq.core.internal;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.echomq.core.LaneFullException;
import io.echomq.core.QueuePartitions;
import io.echomq.core.ServerOutOfMemoryException;
import io.echomq.core.WrongKeyTypeException;
import io.lettuce.core.RedisCommandExecutionException;
import org.jspecify.annotations.Nullable;

import org.springframework.core.log.LogAccessor;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.lettuce.LettuceExceptionConverter;

/**
 * What a script's failure means: an error reply (the script ran and refused, nothing was
 * written) or a failure of unknown effect, and the exception a caller gets for it.
 *
 * @author EchoMQ
 */
final class ScriptErrors {

	private static final LettuceExceptionConverter EXCEPTION_CONVERTER = new LettuceExceptionConverter();

	private static final LogAccessor logger = new LogAccessor(ScriptErrors.class);

	/** What {@code enqueue.lua} says of a lane at its pending cap. */
	private static final Pattern LANE_FULL = Pattern
		.compile("lane (\\S+) holds (\\d+) of cap (\\d+), (\\d+) more refused");

	private static final Pattern NOPERM_COMMAND = Pattern.compile("NOPERM .*'([a-z|-]+)' command");

	/** The refused commands already logged: an operator reads each once, not per call. */
	private static final Set<String> DENIED_LOGGED = ConcurrentHashMap.newKeySet();

	private ScriptErrors() {
	}

	static Exception convert(Throwable error) {
		if (error instanceof Exception exception) {
			DataAccessException converted = EXCEPTION_CONVERTER.convert(exception);
			return (converted != null) ? converted : exception;
		}
		return new RedisSystemException(error.getMessage(), error);
	}

	static boolean isErrorReply(Throwable ex) {
		return ex instanceof ServerOutOfMemoryException || errorReply(ex) != null;
	}

	static @Nullable RedisCommandExecutionException errorReply(Throwable ex) {
		Throwable current = ex;
		while (current != null) {
			if (current instanceof RedisCommandExecutionException reply) {
				return reply;
			}
			if (current.getCause() == current) {
				break;
			}
			current = current.getCause();
		}
		return null;
	}

	static RuntimeException translate(Script script, List<String> keys, Throwable error) {
		String denied = deniedCommand(error);
		if (denied != null) {
			// Redis 6.2 names only the command of a refused subcommand ('cluster')
			boolean cluster = denied.equals("cluster") || denied.startsWith("cluster|");
			String grant = cluster ? "+cluster|nodes +cluster|myid +info +client|setname (a cluster client reads the"
					+ " topology on every node; never all of CLUSTER)" : "+" + denied;
			String advice = "Redis refused the command '" + denied
					+ "' to the user EchoMQ connects as (NOPERM): grant it" + " with " + grant
					+ " (docs/security.md, 'A least-privilege ACL user')";
			if (DENIED_LOGGED.add(denied)) {
				logger.error(() -> advice);
			}
			return (error instanceof RedisConnectionFailureException)
					? new RedisConnectionFailureException(advice, error) : new RedisSystemException(advice, error);
		}
		if (contains(error, "OOM ")) {
			return new ServerOutOfMemoryException(script.name(), keys.isEmpty() ? "?" : keys.get(0), error);
		}
		String expiry = find(error, "EMQARG expiry ");
		if (expiry != null) {
			// an expiry the server's clock refuses (includes/expiry.lua): bad input, not
			// a server failure
			return new IllegalArgumentException("EchoMQ '" + script.name() + "' refused the job: expiry " + expiry,
					error);
		}
		String wrongType = find(error, "EMQKEYTYPE ");
		if (wrongType != null) {
			return new WrongKeyTypeException(script.name(), wrongType, error);
		}
		String full = find(error, "EMQFULL ");
		if (full != null) {
			Matcher matcher = LANE_FULL.matcher(full);
			if (matcher.matches()) {
				return new LaneFullException(queueOf(keys), matcher.group(1), Long.parseLong(matcher.group(2)),
						Long.parseLong(matcher.group(3)), Long.parseLong(matcher.group(4)), error);
			}
		}
		RedisCommandExecutionException reply = errorReply(error);
		if (reply != null && error instanceof RedisSystemException) {
			// Spring's own message is a bare "Error in execution"
			return new RedisSystemException("EchoMQ '" + script.name() + "' failed: " + reply.getMessage(), error);
		}
		if (error instanceof RuntimeException runtime) {
			return runtime;
		}
		return new RedisSystemException("EchoMQ '" + script.name() + "' failed: " + error.getMessage(), error);
	}

	/**
	 * Return the logical queue of a call's first key, the name in its hash tag.
	 */
	private static String queueOf(List<String> keys) {
		String key = keys.isEmpty() ? "" : keys.get(0);
		int open = key.indexOf('{');
		int close = key.indexOf('}', open + 1);
		return (open >= 0 && close > open) ? QueuePartitions.logicalName(key.substring(open + 1, close)) : "?";
	}

	/**
	 * Return the command a {@code NOPERM} reply anywhere in the failure (its causes and
	 * suppressed failures, as a cluster client's topology refresh gathers them) refused.
	 */
	static @Nullable String deniedCommand(Throwable error) {
		return deniedCommand(error, Collections.newSetFromMap(new IdentityHashMap<>()));
	}

	private static @Nullable String deniedCommand(@Nullable Throwable error, Set<Throwable> seen) {
		if (error == null || !seen.add(error)) {
			return null;
		}
		String message = error.getMessage();
		if (message != null) {
			Matcher matcher = NOPERM_COMMAND.matcher(message);
			if (matcher.find()) {
				return matcher.group(1);
			}
		}
		for (Throwable suppressed : error.getSuppressed()) {
			String found = deniedCommand(suppressed, seen);
			if (found != null) {
				return found;
			}
		}
		return deniedCommand(error.getCause(), seen);
	}

	static boolean isNoScript(Throwable ex) {
		return contains(ex, "NOSCRIPT");
	}

	static boolean contains(Throwable ex, String text) {
		return find(ex, text) != null;
	}

	/**
	 * Return the text after {@code marker} in the first message of the cause chain that
	 * holds it, up to the first {@code ;} (scripts end their errors with
	 * {@code ; nothing was written} and the server appends the script's name).
	 */
	static @Nullable String find(Throwable ex, String marker) {
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

}
