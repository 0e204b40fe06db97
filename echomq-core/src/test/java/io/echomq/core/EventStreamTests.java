package io.echomq.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.FencingToken;
import io.echomq.schedule.ScheduleDefinition;
import io.echomq.schedule.ScheduleFire;
import io.echomq.schedule.ScheduleOrigin;
import io.echomq.schedule.ScheduleSpec;
import io.echomq.schedule.internal.Schedules;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.Limit;
import org.springframework.data.redis.connection.stream.MapRecord;

import static io.echomq.core.EventStreamEntries.entryOf;
import static io.echomq.core.EventStreamEntries.sequence;
import static io.echomq.core.EventStreamEntries.typesOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Job events other processes hear: the transition scripts of a queue that opts in write
 * each transition to {@code emq:{q}:events} in the same move (events.lua).
 *
 * @author EchoMQ
 */
@EnumSource(names = { "VALKEY", "REDIS", "CLUSTER", "EMBEDDED_REDIS" })
class EventStreamTests extends EngineTestSupport {

	@Test
	void everyTransitionShouldBeAddedInOrderWithAGaplessSequence() {
		this.jobs.events().enable(this.queue, 1000);
		JobId done = this.jobs.enqueues().enqueue(this.queue, "a", EnqueueSpec.defaults());
		JobId retried = this.jobs.enqueues().enqueue(this.queue, "b", EnqueueSpec.defaults().withMaxAttempts(2));
		JobId released = this.jobs.enqueues().enqueue(this.queue, "c", EnqueueSpec.defaults());
		JobId reaped = this.jobs.enqueues().enqueue(this.queue, "d", EnqueueSpec.defaults());
		JobId cancelled = this.jobs.enqueues()
			.enqueue(this.queue, "e", EnqueueSpec.defaults().withDelay(Duration.ofHours(1)));
		Map<JobId, ClaimedJob> claimed = new LinkedHashMap<>();
		this.jobs.claims().claim(this.queue, LEASE, 3).forEach((job) -> claimed.put(job.id(), job));
		ClaimedJob toReap = this.jobs.claims().claim(this.queue, Duration.ofMillis(20), 1).get(0);
		assertThat(toReap.id()).isEqualTo(reaped);
		assertThat(this.jobs.outcomes().progress(this.queue, done, claimed.get(done).token(), 50).isApplied()).isTrue();
		assertThat(this.jobs.outcomes().complete(this.queue, done, claimed.get(done).token()).isApplied()).isTrue();
		assertThat(this.jobs.outcomes()
			.retry(this.queue, retried, claimed.get(retried).token(), "boom", Duration.ZERO)
			.isApplied()).isTrue();
		ClaimedJob again = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		assertThat(again.id()).isEqualTo(retried);
		assertThat(this.jobs.outcomes().deadLetter(this.queue, retried, again.token(), "fatal").isApplied()).isTrue();
		assertThat(this.jobs.outcomes().release(this.queue, released, claimed.get(released).token()).isApplied())
			.isTrue();
		await().atMost(Duration.ofSeconds(5)).until(() -> this.jobs.upkeep().reap(this.queue, 10).requeued() == 1);
		this.jobs.admin().cancel(this.queue, cancelled);

		List<MapRecord<String, Object, Object>> entries = entries();
		assertThat(entries).extracting((entry) -> entry.getId().getValue())
			.containsExactlyElementsOf(sequence(1, entries.size()));
		assertThat(typesOf(entries, done)).containsExactly("added", "claimed", "progress", "completed");
		assertThat(typesOf(entries, retried)).containsExactly("added", "claimed", "retried", "claimed", "dead");
		assertThat(typesOf(entries, released)).containsExactly("added", "claimed", "released");
		assertThat(typesOf(entries, reaped)).containsExactly("added", "claimed", "reaped");
		assertThat(typesOf(entries, cancelled)).containsExactly("added", "cancelled");
		Map<Object, Object> completed = entryOf(entries, done, "completed");
		assertThat(completed).containsEntry("attempts", "1").containsEntry("size", "0").containsKey("at");
		assertThat(entryOf(entries, retried, "dead")).containsEntry("attempts", "2").containsEntry("error", "fatal");
		assertThat(entryOf(entries, done, "progress")).containsEntry("progress", "50");
		assertThat(entryOf(entries, cancelled, "added")).containsEntry("state", "schedule");
	}

	@Test
	void batchedCompletionsAndPromotionsShouldEachAddAnEvent() {
		this.jobs.events().enable(this.queue, 10_000);
		List<JobId> ids = this.jobs.enqueues().enqueueAll(this.queue, payloads(100), EnqueueSpec.defaults());
		List<ClaimedJob> claimed = this.jobs.claims().claim(this.queue, LEASE, 100);
		List<JobId> claimedIds = claimed.stream().map(ClaimedJob::id).toList();
		List<FencingToken> tokens = claimed.stream().map(ClaimedJob::token).toList();
		assertThat(this.jobs.outcomes().completeAll(this.queue, claimedIds, tokens))
			.allMatch((result) -> result != null && result.isApplied());
		JobId later = this.jobs.enqueues()
			.enqueue(this.queue, "later", EnqueueSpec.defaults().withDelay(Duration.ofMillis(1)));
		await().atMost(Duration.ofSeconds(5)).until(() -> this.jobs.upkeep().promote(this.queue, 10) == 1);

		List<MapRecord<String, Object, Object>> entries = entries();
		assertThat(entries).hasSize(302);
		for (JobId id : ids) {
			assertThat(typesOf(entries, id)).containsExactly("added", "claimed", "completed");
		}
		assertThat(typesOf(entries, later)).containsExactly("added", "promoted");
	}

	@Test
	void aJobOfALaneShouldBeHeardClaimed() {
		this.jobs.events().enable(this.queue, 100);
		JobId id = this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults().withLane("tenant-1"));
		ClaimedJob job = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		assertThat(job.id()).isEqualTo(id);
		this.jobs.outcomes().complete(this.queue, id, job.token());
		assertThat(typesOf(entries(), id)).containsExactly("added", "claimed", "completed");
	}

	@Test
	void aSmallBoundShouldTrimTheStreamWhileTheSequenceCountsEveryEvent() {
		this.jobs.events().enable(this.queue, 10);
		this.jobs.enqueues().enqueueAll(this.queue, payloads(1000), EnqueueSpec.defaults());
		Long length = this.redis.opsForStream().size(this.jobs.events().key(this.queue));
		assertThat(length).isBetween(10L, 10L + 200);
		List<MapRecord<String, Object, Object>> last = this.redis.opsForStream()
			.reverseRange(this.jobs.events().key(this.queue), Range.unbounded(), Limit.limit().count(1));
		assertThat(last.get(0).getId().getValue()).isEqualTo("1000-0");
	}

	@Test
	void adminVerbsAndSchedulesShouldEachAddTheirEvent() {
		this.jobs.events().enable(this.queue, 1000);
		Schedules schedules = new Schedules(this.jobs);
		List<JobId> dead = deadJobs(3);
		JobId replayed = dead.get(0);
		JobId later = this.jobs.enqueues()
			.enqueue(this.queue, "later", EnqueueSpec.defaults().withDelay(Duration.ofHours(1)));
		JobId laneLater = this.jobs.enqueues()
			.enqueue(this.queue, "lane", EnqueueSpec.defaults().withLane("t").withDelay(Duration.ofHours(1)));
		JobId deleted = this.jobs.enqueues().enqueue(this.queue, "gone", EnqueueSpec.defaults());
		JobId broken = this.jobs.enqueues().enqueue(this.queue, "broken", EnqueueSpec.defaults());
		this.redis.opsForHash().put(this.keyspace.jobKey(this.queue, broken), "attempts", "x");
		schedules.put(new ScheduleDefinition(this.queue, "s", ScheduleSpec.every(Duration.ofHours(1)), "\"p\"",
				ScheduleOrigin.API));

		assertThat(this.jobs.admin().replay(this.queue, replayed, 2).isApplied()).isTrue();
		assertThat(this.jobs.admin().runNow(this.queue, later).isApplied()).isTrue();
		assertThat(this.jobs.admin().runNow(this.queue, laneLater).isApplied()).isTrue();
		assertThat(this.jobs.admin().delete(this.queue, deleted).isApplied()).isTrue();
		assertThat(this.jobs.admin().purgeDead(this.queue)).isEqualTo(2);
		assertThat(
				this.jobs.upkeep().quarantine(this.queue, JobState.PENDING, List.of(broken.toString())).quarantined())
			.isOne();
		ScheduleFire triggered = schedules.trigger(this.queue, "s", 1, ScheduleDefinition::payload);

		List<MapRecord<String, Object, Object>> entries = entries();
		assertThat(entries).extracting((entry) -> entry.getId().getValue())
			.containsExactlyElementsOf(sequence(1, entries.size()));
		assertThat(typesOf(entries, replayed)).containsExactly("added", "claimed", "dead", "replayed");
		assertThat(entryOf(entries, replayed, "replayed")).containsEntry("state", "pending")
			.containsEntry("attempts", "1");
		assertThat(typesOf(entries, later)).containsExactly("added", "promoted");
		assertThat(typesOf(entries, laneLater)).containsExactly("added", "scheduled");
		assertThat(entryOf(entries, laneLater, "scheduled")).containsKey("run_at");
		assertThat(typesOf(entries, deleted)).containsExactly("added", "deleted");
		assertThat(entryOf(entries, deleted, "deleted")).containsEntry("state", "pending");
		assertThat(typesOf(entries, dead.get(1))).containsExactly("added", "claimed", "dead", "purged");
		assertThat(typesOf(entries, dead.get(2))).containsExactly("added", "claimed", "dead", "purged");
		assertThat(typesOf(entries, broken)).containsExactly("added", "quarantined");
		assertThat(entryOf(entries, broken, "quarantined")).containsEntry("state", "pending")
			.containsEntry("attempts", "0")
			.containsEntry("error", "field 'attempts' is not an integer");
		assertThat(typesOf(entries, triggered.id())).containsExactly("added");
		assertThat(entryOf(entries, triggered.id(), "added")).containsEntry("state", "pending")
			.containsEntry("schedule", "s");
	}

	@Test
	void adminVerbsOfAQueueThatDoesNotOptInShouldWriteNoStream() {
		Schedules schedules = new Schedules(this.jobs);
		List<JobId> dead = deadJobs(2);
		JobId later = this.jobs.enqueues()
			.enqueue(this.queue, "later", EnqueueSpec.defaults().withDelay(Duration.ofHours(1)));
		JobId broken = this.jobs.enqueues().enqueue(this.queue, "broken", EnqueueSpec.defaults());
		this.redis.opsForHash().put(this.keyspace.jobKey(this.queue, broken), "attempts", "x");
		schedules.put(new ScheduleDefinition(this.queue, "s", ScheduleSpec.every(Duration.ofHours(1)), "\"p\"",
				ScheduleOrigin.API));
		assertThat(this.jobs.admin().replay(this.queue, dead.get(0), 2).isApplied()).isTrue();
		assertThat(this.jobs.admin().runNow(this.queue, later).isApplied()).isTrue();
		assertThat(this.jobs.admin().delete(this.queue, later).isApplied()).isTrue();
		assertThat(this.jobs.admin().purgeDead(this.queue)).isOne();
		assertThat(
				this.jobs.upkeep().quarantine(this.queue, JobState.PENDING, List.of(broken.toString())).quarantined())
			.isOne();
		assertThat(schedules.trigger(this.queue, "s", 1, ScheduleDefinition::payload)).isNotNull();
		assertThat(this.redis.hasKey(this.jobs.events().key(this.queue))).isFalse();
	}

	private List<JobId> deadJobs(int count) {
		List<JobId> ids = this.jobs.enqueues().enqueueAll(this.queue, payloads(count), EnqueueSpec.defaults());
		for (ClaimedJob job : this.jobs.claims().claim(this.queue, LEASE, count)) {
			assertThat(this.jobs.outcomes().deadLetter(this.queue, job.id(), job.token(), "fatal").isApplied())
				.isTrue();
		}
		return ids;
	}

	@Test
	void aQueueThatDoesNotOptInShouldWriteNoStream() {
		ClaimedJob job = enqueueAndClaim(LEASE);
		this.jobs.outcomes().complete(this.queue, job.id(), job.token());
		assertThat(this.redis.hasKey(this.jobs.events().key(this.queue))).isFalse();
		assertThat(this.jobs.events().maxLength(this.queue)).isNull();
	}

	private List<MapRecord<String, Object, Object>> entries() {
		return EventStreamEntries.read(this.redis, this.jobs.events().key(this.queue));
	}

	private static List<String> payloads(int count) {
		List<String> payloads = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			payloads.add("p" + i);
		}
		return payloads;
	}

}
