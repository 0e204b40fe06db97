package io.echomq.test.server;

import java.util.Optional;

import org.assertj.core.api.Assumptions;

import static org.assertj.core.api.Assertions.fail;

/**
 * Finds server binaries for tests: on CI ({@code CI=true}) a missing binary fails the
 * test, elsewhere it skips it.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public final class TestBinaries {

	private TestBinaries() {
	}

	/**
	 * Return whether the tests run on CI.
	 * @return {@code true} if {@code CI=true}
	 */
	public static boolean isCi() {
		return "true".equalsIgnoreCase(System.getenv("CI"));
	}

	/**
	 * Return the binary of the given flavor on {@code PATH}, failing on CI and skipping
	 * elsewhere when there is none.
	 * @param flavor the flavor
	 * @return the binary
	 */
	public static ServerBinary onPath(ServerFlavor flavor) {
		Optional<ServerBinary> binary = ServerBinary.onPath(flavor);
		if (binary.isEmpty() && isCi()) {
			fail("CI requires " + flavor.serverExecutable() + " on PATH");
		}
		Assumptions.assumeThat(binary).as(flavor.serverExecutable() + " is not installed").isPresent();
		return binary.orElseThrow();
	}

	/**
	 * Return the embedded Redis binary, failing when embedded-redis is not on the test
	 * class path.
	 * @return the binary
	 */
	public static ServerBinary embedded() {
		return ServerBinary.embedded()
			.orElseThrow(() -> new AssertionError("embedded-redis binary missing from the test class path"));
	}

}
