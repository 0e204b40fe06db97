package io.echomq.listener;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.echomq.core.JobId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A graceful stop, without Spring Boot: the running job finishes and is completed, the
 * jobs claimed ahead go back to pending, and nothing new is claimed. Runs on every server
 * of {@link io.echomq.core.EngineServer}.
 *
 * @author EchoMQ
 */
@EnumSource
class GracefulStopTests extends ContainerTestSupport {

	@Test
	void stopLetsTheRunningJobFinishAndClaimsNothingNew() throws Exception {
		CountDownLatch started = new CountDownLatch(1);
		CountDownLatch finish = new CountDownLatch(1);
		List<String> ran = new CopyOnWriteArrayList<>();
		QueueListenerContainer container = start((job, context) -> {
			ran.add(job.id().toString());
			started.countDown();
			finish.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
		}, ListenerSettings.builder().concurrency(1).build());
		JobId running = this.template.enqueue(this.queue, "running");
		assertThat(started.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		this.template.enqueue(this.queue, "waiting");
		CountDownLatch stopped = new CountDownLatch(1);
		container.stop(stopped::countDown);
		this.template.enqueue(this.queue, "after the stop");
		assertThat(stopped.getCount()).as("the stop waits for the running job").isOne();
		finish.countDown();
		assertThat(stopped.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		assertThat(container.isRunning()).isFalse();
		assertThat(ran).containsExactly(running.toString());
		assertThat(container.getCompletedCount()).isOne();
		assertThat(this.inspector.job(this.queue, running)).isNull();
		assertThat(counter("completed")).isOne();
		// the job claimed ahead (if any) went back: both others wait, unclaimed
		await().atMost(WAIT).until(() -> stats().pending() == 2);
		assertThat(stats().active()).isZero();
		assertThat(ran).hasSize(1);
	}

}
