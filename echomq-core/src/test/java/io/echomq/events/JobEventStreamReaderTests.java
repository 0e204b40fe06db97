package io.echomq.events;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import io.echomq.core.EngineTestSupport;
import io.echomq.core.JobId;
import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.FencingToken;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.data.domain.Range;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A {@link JobEventStreamReader} hears a queue's events in order, resumes after a restart
 * where its consumer group stands, and reports what the stream's bound trimmed.
 *
 * @author EchoMQ
 */
@EnumSource(names = { "VALKEY", "REDIS", "EMBEDDED_REDIS" })
class JobEventStreamReaderTests extends EngineTestSupport {

	private final List<JobEventStreamContainer> containers = new ArrayList<>();

	@AfterEach
	void stopContainers() {
		this.containers.forEach(JobEventStreamContainer::stop);
	}

	@Test
	void aListenerShouldHearEveryTransitionOfAThousandJobsInOrderPerJob() {
		this.jobs.events().enable(this.queue, 100_000);
		Heard heard = new Heard(this.queue, "audit");
		start(heard);
		List<JobId> ids = runThousandJobs();
		await().atMost(Duration.ofSeconds(30)).until(() -> heard.events.size() == 3000);
		Map<String, List<JobEventType>> perJob = heard.perJob();
		for (JobId id : ids) {
			assertThat(perJob.get(id.toString())).containsExactly(JobEventType.ADDED, JobEventType.CLAIMED,
					JobEventType.COMPLETED);
		}
		assertThat(heard.events).extracting(JobEvent::sequence).isSorted().doesNotHaveDuplicates();
		assertThat(heard.gaps).isEmpty();
		assertThat(heard.counted.get()).isEqualTo(3000);
	}

	@Test
	void aRestartedListenerShouldResumeWithNoneMissing() {
		this.jobs.events().enable(this.queue, 100_000);
		Heard first = new Heard(this.queue, "audit");
		JobEventStreamContainer container = start(first);
		List<JobId> ids = this.jobs.enqueues().enqueueAll(this.queue, payloads(500), EnqueueSpec.defaults());
		await().atMost(Duration.ofSeconds(30)).until(() -> first.events.size() == 500);
		container.stop();
		this.jobs.enqueues().enqueueAll(this.queue, payloads(500), EnqueueSpec.defaults());
		Heard second = new Heard(this.queue, "audit");
		start(second);
		await().atMost(Duration.ofSeconds(30)).until(() -> second.events.size() == 500);
		List<Long> sequences = new ArrayList<>();
		first.events.forEach((event) -> sequences.add(event.sequence()));
		second.events.forEach((event) -> sequences.add(event.sequence()));
		assertThat(sequences).hasSize(1000).doesNotHaveDuplicates().isSorted();
		assertThat(sequences.get(999)).isEqualTo(1000);
		assertThat(second.gaps).isEmpty();
		assertThat(first.perJob()).containsOnlyKeys(ids.stream().map(JobId::toString).toList());
	}

	@Test
	void eventsTrimmedBeforeTheListenerReadThemShouldBeReportedAsAGapWithItsSize() {
		this.jobs.events().enable(this.queue, 10);
		Heard first = new Heard(this.queue, "audit");
		JobEventStreamContainer container = start(first);
		this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults());
		await().atMost(Duration.ofSeconds(30)).until(() -> first.events.size() == 1);
		container.stop();
		this.jobs.enqueues().enqueueAll(this.queue, payloads(1000), EnqueueSpec.defaults());
		long oldest = JobEvent.sequence(this.redis.opsForStream()
			.range(this.jobs.events().key(this.queue), Range.unbounded())
			.get(0)
			.getId()
			.getValue());
		Heard second = new Heard(this.queue, "audit");
		start(second);
		await().atMost(Duration.ofSeconds(30))
			.until(() -> !second.events.isEmpty() && second.events.get(second.events.size() - 1).sequence() == 1001);
		assertThat(second.gaps).singleElement().satisfies((gap) -> {
			assertThat(gap.after()).isEqualTo(1);
			assertThat(gap.resumedAt()).isEqualTo(oldest);
			assertThat(gap.missed()).isEqualTo(oldest - 2);
		});
		assertThat(second.missed.get()).isEqualTo(oldest - 2);
		assertThat(second.events.size() + second.missed.get()).isEqualTo(1000);
	}

	private List<JobId> runThousandJobs() {
		List<JobId> ids = this.jobs.enqueues().enqueueAll(this.queue, payloads(1000), EnqueueSpec.defaults());
		int done = 0;
		while (done < 1000) {
			List<ClaimedJob> claimed = this.jobs.claims().claim(this.queue, LEASE, 64);
			List<JobId> batch = claimed.stream().map(ClaimedJob::id).toList();
			List<FencingToken> tokens = claimed.stream().map(ClaimedJob::token).toList();
			this.jobs.outcomes().completeAll(this.queue, batch, tokens);
			done += claimed.size();
		}
		return ids;
	}

	private JobEventStreamContainer start(Heard heard) {
		JobEventStreamContainer container = new JobEventStreamContainer(this.redis, this.jobs.events()::key,
				List.of(heard), heard);
		container.start();
		this.containers.add(container);
		return container;
	}

	private static List<String> payloads(int count) {
		List<String> payloads = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			payloads.add("p" + i);
		}
		return payloads;
	}

	private static final class Heard implements JobEventStreamListener, JobEventStreamCounters {

		private final String queue;

		private final String id;

		final List<JobEvent> events = new CopyOnWriteArrayList<>();

		final List<JobEventGap> gaps = new CopyOnWriteArrayList<>();

		final AtomicLong counted = new AtomicLong();

		final AtomicLong missed = new AtomicLong();

		Heard(String queue, String id) {
			this.queue = queue;
			this.id = id;
		}

		@Override
		public String queue() {
			return this.queue;
		}

		@Override
		public String id() {
			return this.id;
		}

		@Override
		public void onEvent(JobEvent event) {
			this.events.add(event);
		}

		@Override
		public void onGap(JobEventGap gap) {
			this.gaps.add(gap);
		}

		@Override
		public void onRead(JobEventStreamListener listener, long count) {
			this.counted.addAndGet(count);
		}

		@Override
		public void onGap(JobEventStreamListener listener, long missed) {
			this.missed.addAndGet(missed);
		}

		Map<String, List<JobEventType>> perJob() {
			Map<String, List<JobEventType>> perJob = new HashMap<>();
			this.events
				.forEach((event) -> perJob.computeIfAbsent(event.id(), (key) -> new ArrayList<>()).add(event.type()));
			return perJob;
		}

	}

}
