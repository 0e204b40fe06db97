package io.echomq.test;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link OwnedServers}.
 *
 * @author EchoMQ
 */
class OwnedServersTests {

	@Test
	void afterEachShouldCloseWhatItOwnsLastFirstAndForgetIt() throws Exception {
		List<String> closed = new ArrayList<>();
		OwnedServers servers = new OwnedServers();
		servers.own(() -> closed.add("cluster"));
		servers.own(() -> closed.add("application"));
		servers.afterEach(null);
		assertThat(closed).containsExactly("application", "cluster");
		servers.afterEach(null);
		assertThat(closed).hasSize(2);
	}

	@Test
	void afterEachShouldCloseEverythingEvenWhenAClosingFailsAndThenReportTheFailures() {
		List<String> closed = new ArrayList<>();
		OwnedServers servers = new OwnedServers();
		servers.own(() -> closed.add("first"));
		servers.own(() -> {
			throw new IllegalStateException("second");
		});
		servers.own(() -> {
			throw new IllegalStateException("third");
		});
		assertThatIllegalStateException().isThrownBy(() -> servers.afterEach(null))
			.withMessage("third")
			.satisfies(
					(ex) -> assertThat(ex.getSuppressed()).extracting(Throwable::getMessage).containsExactly("second"));
		assertThat(closed).containsExactly("first");
	}

}
