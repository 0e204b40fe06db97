package io.echomq.events;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.echomq.core.EngineTestSupport;
import io.echomq.core.JobId;
import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.FencingToken;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A second JVM hears every transition of 1,000 jobs this JVM runs, in order per job, with
 * none missing across a restart of the listening JVM.
 *
 * @author EchoMQ
 */
@EnumSource(names = { "VALKEY", "REDIS", "EMBEDDED_REDIS" })
class EventListenerProcessTests extends EngineTestSupport {

	private static final Duration TIMEOUT = EventListenerChildren.TIMEOUT;

	@Test
	void aSecondJvmHearsEveryTransitionAcrossItsRestart() throws Exception {
		this.jobs.events().enable(this.queue, 100_000);
		List<String> lines = new CopyOnWriteArrayList<>();
		List<JobId> ids = new ArrayList<>();
		EventListenerChildren.Child first = startChild(lines);
		ids.addAll(runJobs(500));
		await().atMost(TIMEOUT).until(() -> EventListenerChildren.events(lines).size() == 1500);
		first.stop();
		ids.addAll(runJobs(500));
		EventListenerChildren.Child second = startChild(lines);
		await().atMost(TIMEOUT).until(() -> EventListenerChildren.events(lines).size() == 3000);
		second.stop();
		List<String[]> events = EventListenerChildren.events(lines);
		Map<String, List<String>> perJob = new HashMap<>();
		List<Long> sequences = new ArrayList<>();
		for (String[] event : events) {
			sequences.add(Long.parseLong(event[1]));
			perJob.computeIfAbsent(event[3], (id) -> new ArrayList<>()).add(event[2]);
		}
		assertThat(sequences).doesNotHaveDuplicates().isSorted();
		assertThat(sequences.get(sequences.size() - 1)).isEqualTo(3000);
		for (JobId id : ids) {
			assertThat(perJob.get(id.toString())).containsExactly("ADDED", "CLAIMED", "COMPLETED");
		}
		assertThat(lines).noneMatch((line) -> line.startsWith("GAP"));
	}

	private List<JobId> runJobs(int count) {
		List<String> payloads = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			payloads.add("p" + i);
		}
		List<JobId> ids = this.jobs.enqueues().enqueueAll(this.queue, payloads, EnqueueSpec.defaults());
		int done = 0;
		while (done < count) {
			List<ClaimedJob> claimed = this.jobs.claims().claim(this.queue, LEASE, 64);
			List<JobId> batch = claimed.stream().map(ClaimedJob::id).toList();
			List<FencingToken> tokens = claimed.stream().map(ClaimedJob::token).toList();
			this.jobs.outcomes().completeAll(this.queue, batch, tokens);
			done += claimed.size();
		}
		return ids;
	}

	private EventListenerChildren.Child startChild(List<String> lines) throws Exception {
		return EventListenerChildren.start(this.engine.connectionArguments(), this.queue, "second-jvm", lines);
	}

}
