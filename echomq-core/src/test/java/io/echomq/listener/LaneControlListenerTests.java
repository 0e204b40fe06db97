package io.echomq.listener;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.echomq.core.EnqueueOptions;
import io.echomq.core.JobId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A paused lane under a running listener: its siblings drain, its jobs wait, and run once
 * it is resumed.
 *
 * @author EchoMQ
 */
@EnumSource(names = "VALKEY")
class LaneControlListenerTests extends ContainerTestSupport {

	@Test
	void aPausedLanesJobsShouldWaitWhileItsSiblingsCompleteAndRunAfterResume() {
		assertThat(this.admin.pauseLane(this.queue, "held")).isTrue();
		List<JobId> held = this.template.enqueueAll(this.queue, List.of("h1", "h2", "h3"),
				EnqueueOptions.defaults().withLane("held"));
		List<JobId> free = this.template.enqueueAll(this.queue, List.of("f1", "f2", "f3", "f4", "f5"),
				EnqueueOptions.defaults().withLane("free"));
		List<String> ran = new CopyOnWriteArrayList<>();
		QueueListenerContainer container = start((job, context) -> ran.add(job.fields().get("lane")),
				ListenerSettings.builder().concurrency(2).build());
		await().atMost(WAIT).until(() -> container.getCompletedCount() == free.size());
		assertThat(ran).containsOnly("free");
		assertThat(stats().lanes()).containsExactly(Map.entry("held", 3L));

		assertThat(this.admin.resumeLane(this.queue, "held")).isTrue();
		await().atMost(WAIT).until(() -> container.getCompletedCount() == free.size() + held.size());
		assertThat(ran).filteredOn("held"::equals).hasSize(3);
		assertDrained();
	}

}
