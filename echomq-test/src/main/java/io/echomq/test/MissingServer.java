package io.echomq.test;

import org.junit.jupiter.api.Assumptions;

/**
 * Skips the current test when the server it asked for is missing. Kept apart from
 * {@link TestRedisServer} so that JUnit is needed only when a test is skipped.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
final class MissingServer {

	private MissingServer() {
	}

	/**
	 * Abort the current test, which JUnit reports as skipped with the reason.
	 * @param <T> what the caller would have returned
	 * @param reason why no server can be supplied
	 * @return never
	 * @throws org.opentest4j.TestAbortedException always
	 */
	static <T> T skip(String reason) {
		return Assumptions.abort(reason);
	}

}
