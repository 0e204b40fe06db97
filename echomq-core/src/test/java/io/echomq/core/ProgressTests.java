package io.echomq.core;

import java.time.Duration;

import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.Results;
import io.echomq.inspect.QueueInspector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * A running job's progress: written on its row by {@code progress.lua}, fenced by the
 * claim's token.
 *
 * @author EchoMQ
 */
@EnumSource(names = { "VALKEY", "REDIS", "CLUSTER", "EMBEDDED_REDIS" })
class ProgressTests extends EngineTestSupport {

	@Test
	void progressShouldBeWrittenOnTheRowOfTheRunningJob() {
		ClaimedJob job = claimOne(LEASE);
		assertThat(this.jobs.outcomes().progress(this.queue, job.id(), job.token(), 40).isApplied()).isTrue();
		assertThat(this.jobs.outcomes().progress(this.queue, job.id(), job.token(), "{\"step\":\"copy\"}").isApplied())
			.isTrue();
		assertThat(new QueueInspector(this.jobs).row(this.queue, job.id())).containsEntry("progress", "40")
			.containsEntry("progress_data", "{\"step\":\"copy\"}")
			.containsEntry("state", "active");
	}

	@Test
	void badProgressShouldBeRefusedNamingTheValueAndWriteNothing() {
		ClaimedJob job = claimOne(LEASE);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.jobs.outcomes().progress(this.queue, job.id(), job.token(), 101))
			.withMessage("progress must be between 0 and 100, was 101");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.jobs.outcomes().progress(this.queue, job.id(), job.token(), -1))
			.withMessageContaining("was -1");
		String big = "\"" + "x".repeat((int) Results.MAX_PROGRESS_BYTES) + "\"";
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.jobs.outcomes().progress(this.queue, job.id(), job.token(), big))
			.withMessageContaining("is " + big.length() + " bytes");
		assertThat(new QueueInspector(this.jobs).row(this.queue, job.id())).doesNotContainKeys("progress",
				"progress_data");
	}

	@Test
	void aStaleWorkerShouldWriteNoProgress() {
		ClaimedJob first = claimOne(Duration.ofMillis(50));
		await().atMost(Duration.ofSeconds(5)).until(() -> this.jobs.upkeep().reap(this.queue, 10).requeued() == 1);
		ClaimedJob second = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		assertThat(this.jobs.outcomes().progress(this.queue, second.id(), second.token(), 10).isApplied()).isTrue();
		TransitionResult stale = this.jobs.outcomes().progress(this.queue, first.id(), first.token(), 90);
		assertThat(stale.reason()).isEqualTo(StaleReason.TOKEN_MISMATCH);
		assertThat(this.jobs.outcomes().progress(this.queue, first.id(), first.token(), "\"stale\"").reason())
			.isEqualTo(StaleReason.TOKEN_MISMATCH);
		assertThat(new QueueInspector(this.jobs).row(this.queue, first.id())).containsEntry("progress", "10")
			.doesNotContainKey("progress_data");
	}

	private ClaimedJob claimOne(Duration lease) {
		this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults());
		return this.jobs.claims().claim(this.queue, lease, 1).get(0);
	}

}
