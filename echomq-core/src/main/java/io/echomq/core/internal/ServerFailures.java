package io.echomq.core.internal;

import java.io.IOException;
import java.util.List;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisException;

import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;

/**
 * Tells the failures of a call that say a server (a cluster master) is unavailable from
 * those that say the call itself is wrong, such as a script's own error.
 * <p>
 * A {@linkplain #isRefusal refusal} is an error reply the server sends before it runs the
 * command ({@code CLUSTERDOWN}, {@code TRYAGAIN}, {@code MASTERDOWN}, {@code LOADING},
 * {@code READONLY}, {@code BUSY}, {@code MOVED}, {@code ASK}): the call certainly did not
 * apply. An {@linkplain #isUnreachable unreachable} server is a call that got no reply (a
 * command timeout, a connection closed or reset with the command in flight, a connection
 * that could not be opened): it may or may not have applied.
 *
 * @author EchoMQ
 * @since 0.2.0
 */
public final class ServerFailures {

	private static final List<String> REFUSALS = List.of("CLUSTERDOWN", "TRYAGAIN", "MASTERDOWN", "LOADING", "READONLY",
			"BUSY", "MOVED", "ASK");

	private ServerFailures() {
	}

	/**
	 * Return whether a failure is an error reply that refused the command before it ran.
	 * @param failure the failure
	 * @return whether the call certainly did not apply because the server is unavailable
	 */
	public static boolean isRefusal(Throwable failure) {
		for (Throwable current = failure; current != null; current = next(current)) {
			if (current instanceof RedisCommandExecutionException reply && reply.getMessage() != null) {
				String code = reply.getMessage().split(" ", 2)[0];
				return REFUSALS.contains(code);
			}
		}
		return false;
	}

	/**
	 * Return whether a failure is a call that got no reply: a timeout or a connection
	 * that was lost, refused or could not be opened.
	 * @param failure the failure
	 * @return whether the server could not be reached (the call may have applied)
	 */
	public static boolean isUnreachable(Throwable failure) {
		for (Throwable current = failure; current != null; current = next(current)) {
			if (current instanceof RedisCommandExecutionException) {
				return false;
			}
			// Lettuce's own failures other than an error reply: a timeout, a connection
			// closed or
			// reset with the command in flight, a connection that could not be opened
			if (current instanceof QueryTimeoutException || current instanceof RedisConnectionFailureException
					|| current instanceof RedisException || current instanceof IOException) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Return whether a failure says the server is unavailable, refused or unreachable.
	 * @param failure the failure
	 * @return whether it is either
	 */
	public static boolean isUnavailable(Throwable failure) {
		return isRefusal(failure) || isUnreachable(failure);
	}

	private static Throwable next(Throwable current) {
		Throwable cause = current.getCause();
		return (cause != current) ? cause : null;
	}

}
