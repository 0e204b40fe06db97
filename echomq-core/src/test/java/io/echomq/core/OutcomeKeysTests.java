package io.echomq.core;

import java.time.Duration;
import java.util.function.Supplier;

import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.FencingToken;
import io.echomq.core.internal.JobKeys;
import io.echomq.flow.FlowJob;
import io.echomq.flow.FlowSpec;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A retry, dead-letter or release of a job with a unique key, a lane or a parent, sent
 * with the keys its claim reported ({@link ClaimedJob#keys(boolean)}), as the listener
 * sends it: one script call, where a caller that does not know the keys is asked for them
 * one answer at a time.
 *
 * @author EchoMQ
 */
@EnumSource(names = { "VALKEY", "REDIS", "CLUSTER" })
class OutcomeKeysTests extends FlowTestSupport {

	@BeforeEach
	void loadScripts() {
		// a call that meets NOSCRIPT is sent again by body: load the scripts first, so
		// that the counts are exact
		JobId none = JobId.mint();
		this.jobs.outcomes().retry(this.queue, none, FencingToken.of(1), "none", Duration.ZERO);
		this.jobs.outcomes().release(this.queue, none, FencingToken.of(1));
	}

	@Test
	void aUniqueJobOfALaneThatDiesIsDeadLetteredInOneCallWithItsKeys() {
		ClaimedJob unknown = claimUniqueInLane("a");
		assertThat(counted(() -> this.jobs.outcomes()
			.deadLetter(this.queue, unknown.id(), unknown.token(), "boom", JobKeys.UNKNOWN)
			.state())).isEqualTo(new Counted<>(JobState.DEAD, 2));
		ClaimedJob known = claimUniqueInLane("b");
		assertThat(counted(() -> this.jobs.outcomes()
			.deadLetter(this.queue, known.id(), known.token(), "boom", known.keys(true))
			.state())).isEqualTo(new Counted<>(JobState.DEAD, 1));
		assertClean(this.queue);
	}

	@Test
	void aUniqueJobOfALaneIsRetriedAndReleasedInOneCallWithItsKeys() {
		ClaimedJob retried = claimUniqueInLane("c");
		assertThat(counted(() -> this.jobs.outcomes()
			.retry(this.queue, retried.id(), retried.token(), "again", Duration.ZERO, JobKeys.UNKNOWN)
			.state())).isEqualTo(new Counted<>(JobState.SCHEDULE, 1));
		this.jobs.upkeep().promote(this.queue, 100);
		ClaimedJob again = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		assertThat(counted(() -> this.jobs.outcomes()
			.retry(this.queue, again.id(), again.token(), "again", Duration.ZERO, again.keys(false))
			.state())).isEqualTo(new Counted<>(JobState.SCHEDULE, 1));
		this.jobs.upkeep().promote(this.queue, 100);
		ClaimedJob released = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		assertThat(counted(() -> this.jobs.outcomes()
			.release(this.queue, released.id(), released.token(), released.keys(false))
			.isApplied())).isEqualTo(new Counted<>(true, 1));
		assertThat(row(this.queue, released.id())).containsEntry("state", "schedule").containsEntry("lane", "tenant");
		assertClean(this.queue);
	}

	@Test
	void aChildOfALaneOnItsLastAttemptIsRetriedIntoDeathInOneCallWithItsKeys() {
		FlowJob flow = template().flow(FlowSpec.job(this.queue, "parent")
			.child(FlowSpec.job(this.queue, "child")
				.options(EnqueueOptions.defaults().withLane("tenant").withMaxAttempts(1))));
		ClaimedJob child = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		assertThat(child.isLastAttempt()).isTrue();
		assertThat(counted(() -> this.jobs.outcomes()
			.retry(this.queue, child.id(), child.token(), "boom", Duration.ZERO, child.keys(child.isLastAttempt()))
			.state())).isEqualTo(new Counted<>(JobState.DEAD, 1));
		assertThat(row(this.queue, flow.id())).containsEntry("state", "dead");
		assertClean(this.queue);
	}

	private ClaimedJob claimUniqueInLane(String name) {
		this.jobs.enqueues()
			.enqueueUnique(this.queue, JobId.mint(), name,
					EnqueueSpec.defaults().withUnique(UniqueKey.untilDone(name)).withLane("tenant").withMaxAttempts(3));
		ClaimedJob job = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		assertThat(job.keys(false)).isEqualTo(new JobKeys(name, null));
		return job;
	}

	/** What the work returned, and how many script calls it made. */
	private <T> Counted<T> counted(Supplier<T> work) {
		long before = this.jobs.executor().getCalls();
		T value = work.get();
		return new Counted<>(value, this.jobs.executor().getCalls() - before);
	}

	record Counted<T>(@Nullable T value, long calls) {

	}

}
