package io.echomq.test.context;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.echomq.test.ChildJvm;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A JVM that ends with an application context still open on the shared test server exits
 * at once and leaves no server behind: the server is released after Spring Boot's
 * shutdown hook closed the context, so the context's listeners do not wait out their
 * command timeouts (60 s) on a server already gone, as they did when both shutdown hooks
 * ran side by side.
 *
 * @author EchoMQ
 */
class SharedServerExitTests {

	@Test
	void jvmWithAnOpenContextExitsPromptlyAndStopsItsServer() throws Exception {
		Path log = Files.createTempFile("echomq-exit-", ".log");
		Process child = ChildJvm.start(SharedServerExitApplication.class, log, List.of());
		try {
			await("context running in the child JVM").atMost(Duration.ofSeconds(90))
				.pollInterval(Duration.ofMillis(50))
				.failFast("child JVM ended before its context ran",
						() -> !child.isAlive() && !Files.readString(log).contains(SharedServerExitApplication.READY))
				.until(() -> Files.readString(log).contains(SharedServerExitApplication.READY));
			// it calls System.exit right after: far less than the 60 s a listener's stop
			// waited on a dead server
			assertThat(child.waitFor(20, TimeUnit.SECONDS)).as("child JVM ended within 20 s of System.exit").isTrue();
			String output = Files.readString(log);
			assertThat(child.exitValue()).as("exit value; log:%n%s", output).isZero();
			long serverPid = Long.parseLong(output.lines()
				.filter((line) -> line.startsWith(SharedServerExitApplication.READY))
				.findFirst()
				.orElseThrow()
				.substring(SharedServerExitApplication.READY.length())
				.trim());
			// -1: a server that is no process of the child's (ECHOMQ_TEST_REDIS_URL, a
			// container)
			if (serverPid > 0) {
				assertThat(ProcessHandle.of(serverPid).filter(ProcessHandle::isAlive)).as("server process after exit")
					.isEmpty();
			}
		}
		finally {
			child.destroyForcibly();
			Files.deleteIfExists(log);
		}
	}

}
