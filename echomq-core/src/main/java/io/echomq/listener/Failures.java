package io.echomq.listener;

import org.jspecify.annotations.Nullable;

import org.springframework.core.retry.RetryPolicy;

/**
 * What a handler's failure means for its job, read from the failure and its causes.
 *
 * @author EchoMQ
 */
final class Failures {

	private Failures() {
	}

	/**
	 * Return the first failure in the cause chain of the given type.
	 * @param <T> the type
	 * @param failure what the handler threw
	 * @param type the type looked for
	 * @return the failure, or {@code null}
	 */
	static <T extends Throwable> @Nullable T find(Throwable failure, Class<T> type) {
		for (Throwable cause = failure; cause != null; cause = (cause.getCause() != cause) ? cause.getCause() : null) {
			if (type.isInstance(cause)) {
				return type.cast(cause);
			}
		}
		return null;
	}

	/**
	 * Return why a failure is not retried whatever attempts are left, or {@code null}
	 * when it may be retried.
	 */
	static @Nullable String fatal(Throwable failure, RetryPolicy retryPolicy) {
		for (Throwable cause = failure; cause != null; cause = (cause.getCause() != cause) ? cause.getCause() : null) {
			if (cause instanceof UnreadablePayloadException) {
				return "unreadable payload";
			}
			if (cause instanceof NonRetryableJobException) {
				return "not retryable";
			}
		}
		return retryPolicy.shouldRetry(failure) ? null : "not retried for " + failure.getClass().getName();
	}

}
