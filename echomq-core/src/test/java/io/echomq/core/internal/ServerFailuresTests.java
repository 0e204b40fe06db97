package io.echomq.core.internal;

import io.echomq.core.JobId;
import io.echomq.core.PartialEnqueueException;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import org.junit.jupiter.api.Test;

import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.RedisSystemException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ServerFailures}.
 *
 * @author EchoMQ
 */
class ServerFailuresTests {

	@Test
	void clusterRefusalsAreRefusalsWhereverTheyAreInTheCauseChain() {
		for (String reply : new String[] { "CLUSTERDOWN The cluster is down",
				"TRYAGAIN Multiple keys request during rehashing", "MASTERDOWN Link with MASTER is down",
				"LOADING Redis is loading", "READONLY You can't write", "BUSY Redis is busy running a script",
				"MOVED 3999 127.0.0.1:6381", "ASK 3999 127.0.0.1:6381" }) {
			Exception failure = new RedisSystemException("EchoMQ 'enqueue' failed: " + reply,
					new RedisSystemException("Error in execution", new RedisCommandExecutionException(reply)));
			assertThat(ServerFailures.isRefusal(failure)).as(reply).isTrue();
			assertThat(ServerFailures.isUnreachable(failure)).as(reply).isFalse();
			assertThat(ServerFailures.isUnavailable(failure)).as(reply).isTrue();
		}
	}

	@Test
	void scriptErrorsAndOtherRepliesAreNeither() {
		for (String reply : new String[] { "EMQARG ARGV[1] must be positive; nothing was written",
				"ERR Error running script", "OOM command not allowed", "WRONGTYPE Operation against a key",
				"NOSCRIPT No matching script" }) {
			Exception failure = new RedisSystemException("failed", new RedisCommandExecutionException(reply));
			assertThat(ServerFailures.isUnavailable(failure)).as(reply).isFalse();
		}
		assertThat(ServerFailures.isUnavailable(new IllegalArgumentException("bad"))).isFalse();
	}

	@Test
	void callsWithNoReplyAreUnreachable() {
		assertThat(ServerFailures.isUnreachable(new QueryTimeoutException("Redis command timed out",
				new RedisCommandTimeoutException("Command timed out after 1 second(s)"))))
			.isTrue();
		assertThat(ServerFailures.isUnreachable(new RedisConnectionFailureException("Unable to connect"))).isTrue();
		assertThat(ServerFailures.isUnreachable(new PartialEnqueueException("q", 1, java.util.List.of(),
				java.util.List.of(JobId.mint()), new QueryTimeoutException("no reply"))))
			.isTrue();
		assertThat(ServerFailures.isRefusal(new QueryTimeoutException("no reply"))).isFalse();
	}

}
