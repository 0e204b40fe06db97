package io.echomq.listener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.echomq.core.EnqueueOptions;
import io.echomq.core.JobId;
import io.echomq.core.JobState;
import io.echomq.core.RowFields;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Expiry under load: 2,000 jobs with short expiries drained by a listener slower than
 * they are enqueued. No attempt is claimed at or after its job's deadline (both times are
 * the server's), and every job either ran once or expired, never both. (The issue's
 * 10,000-job run with a PostgreSQL ledger of runs is left out: this is the same check at
 * a cost CI can carry.)
 *
 * @author EchoMQ
 */
@EnumSource(names = "VALKEY")
class ExpiryUnderLoadTests extends ContainerTestSupport {

	private static final int JOBS = 2000;

	private static final int PER_CALL = 100;

	@Test
	void noJobShouldBeClaimedAfterItsDeadlineAndEachShouldRunOrExpireOnce() {
		List<JobId> ids = new ArrayList<>(JOBS);
		for (int call = 0; call < JOBS / PER_CALL; call++) {
			// expiries from 100 ms to 1 s, interleaved along pending: the later ones
			// outlive the drain
			Duration expiry = Duration.ofMillis(100 + (call % 10) * 100L);
			ids.addAll(this.template.enqueueAll(this.queue, Collections.nCopies(PER_CALL, "job"),
					EnqueueOptions.defaults().withExpiry(expiry)));
		}
		// claim server time and deadline of each run
		Map<JobId, List<long[]>> runs = new ConcurrentHashMap<>();
		start((job, context) -> {
			long deadline = Long.parseLong(job.fields().get(RowFields.EXPIRES_AT));
			runs.computeIfAbsent(job.id(), (id) -> Collections.synchronizedList(new ArrayList<>()))
				.add(new long[] { job.claimedAt().toEpochMilli(), deadline });
			Thread.sleep(5);
		}, ListenerSettings.builder().concurrency(4).build());

		await().atMost(WAIT)
			.until(() -> counter("completed") + counter("expired") == JOBS && stats().active() == 0
					&& stats().pending() == 0);

		assertThat(runs.values()).allSatisfy((attempts) -> {
			assertThat(attempts).hasSize(1);
			assertThat(attempts.get(0)[0]).as("claimed at (server ms) before the deadline")
				.isLessThan(attempts.get(0)[1]);
		});
		// no handler fails: every dead job expired (the rows of a few say so)
		Set<JobId> expired = new HashSet<>();
		for (String id : redis().opsForZSet()
			.range(this.redis.keyspace().locationKey(this.queue, JobState.DEAD), 0, -1)) {
			JobId jobId = JobId.parse(id);
			expired.add(jobId);
			if (expired.size() <= 10) {
				assertThat(redis().opsForHash()
					.get(this.redis.keyspace().jobKey(this.queue, jobId), RowFields.DEAD_REASON)).isEqualTo("expired");
			}
		}
		assertThat(runs.keySet()).doesNotContainAnyElementsOf(expired);
		assertThat(runs.size() + expired.size()).isEqualTo(JOBS);
		assertThat(ids).containsAll(runs.keySet()).containsAll(expired);
		assertThat(runs).isNotEmpty();
		assertThat(expired).isNotEmpty();
		assertThat(counter("expired")).isEqualTo(expired.size());
	}

}
