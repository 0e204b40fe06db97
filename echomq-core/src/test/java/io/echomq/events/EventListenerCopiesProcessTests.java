package io.echomq.events;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.echomq.core.EngineTestSupport;
import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.EnqueueSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two copies of one application, each in its own JVM with the same
 * {@link JobEventStreamListener} (one fixed id), as a web node and a worker run it:
 * together they hear each event of the queue exactly once, and neither reports a gap for
 * the events the other heard.
 *
 * @author EchoMQ
 */
@EnumSource(names = { "VALKEY", "REDIS" })
class EventListenerCopiesProcessTests extends EngineTestSupport {

	private static final Duration TIMEOUT = EventListenerChildren.TIMEOUT;

	private static final int JOBS = 300;

	@Test
	void twoJvmsWithTheSameListenerShareItsEventsExactlyOnceWithoutAGap() throws Exception {
		this.jobs.events().enable(this.queue, 100_000);
		List<String> heard = new CopyOnWriteArrayList<>();
		EventListenerChildren.Child web = startChild(heard);
		EventListenerChildren.Child worker = startChild(heard);
		runJobs();
		await().atMost(TIMEOUT).until(() -> EventListenerChildren.events(heard).size() >= 3 * JOBS);
		web.stop();
		worker.stop();
		List<Long> sequences = EventListenerChildren.events(heard)
			.stream()
			.map((event) -> Long.parseLong(event[1]))
			.sorted()
			.toList();
		assertThat(sequences).as("each event heard once across the copies").doesNotHaveDuplicates().hasSize(3 * JOBS);
		assertThat(sequences.get(0)).isOne();
		assertThat(sequences.get(sequences.size() - 1)).isEqualTo(3L * JOBS);
		assertThat(heard).as("gaps reported by the copies").noneMatch((line) -> line.startsWith("GAP"));
	}

	private void runJobs() {
		List<String> payloads = new ArrayList<>();
		for (int i = 0; i < JOBS; i++) {
			payloads.add("p" + i);
		}
		this.jobs.enqueues().enqueueAll(this.queue, payloads, EnqueueSpec.defaults());
		int done = 0;
		while (done < JOBS) {
			List<ClaimedJob> claimed = this.jobs.claims().claim(this.queue, LEASE, 64);
			this.jobs.outcomes()
				.completeAll(this.queue, claimed.stream().map(ClaimedJob::id).toList(),
						claimed.stream().map(ClaimedJob::token).toList());
			done += claimed.size();
		}
	}

	private EventListenerChildren.Child startChild(List<String> lines) throws Exception {
		return EventListenerChildren.start(this.engine.connectionArguments(), this.queue, "audit-trail", lines);
	}

}
