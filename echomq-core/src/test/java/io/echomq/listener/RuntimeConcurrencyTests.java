package io.echomq.listener;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.echomq.QueueLimits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A listener concurrency stored at run time ({@code EchoMqAdmin.setConcurrency}) is
 * picked up by a running container within the stated bound (a second while it claims or
 * idles), kept by a container started later, and a reset returns to the configured one.
 *
 * @author EchoMQ
 */
@EnumSource(names = "VALKEY")
class RuntimeConcurrencyTests extends ContainerTestSupport {

	/**
	 * The stated bound ({@link ConcurrencyWatch#EVERY}) with room for a loaded machine.
	 */
	private static final Duration BOUND = ConcurrencyWatch.EVERY.plusSeconds(2);

	@Test
	void storedConcurrencyShouldResizeARunningContainerAndSurviveARestart() throws Exception {
		AtomicInteger running = new AtomicInteger();
		CountDownLatch release = new CountDownLatch(1);
		ListenerSettings one = ListenerSettings.builder().concurrency(1).build();
		QueueListenerContainer container = start((job, context) -> {
			running.incrementAndGet();
			try {
				release.await(20, TimeUnit.SECONDS);
			}
			finally {
				running.decrementAndGet();
			}
		}, one);
		for (int i = 0; i < 6; i++) {
			this.template.enqueue(this.queue, "job " + i);
		}
		await().atMost(WAIT).until(() -> running.get() == 1);
		assertThat(container.getConcurrency()).isEqualTo(1);
		this.admin.setConcurrency(this.queue, 3);
		long written = System.nanoTime();
		await().atMost(BOUND).pollInterval(Duration.ofMillis(20)).until(() -> running.get() == 3);
		Duration took = Duration.ofNanos(System.nanoTime() - written);
		assertThat(took).isLessThan(BOUND);
		assertThat(container.getConcurrency()).isEqualTo(3);
		release.countDown();
		container.stop();
		QueueListenerContainer restarted = start((job, context) -> {
		}, one);
		assertThat(restarted.getConcurrency()).as("a container started later keeps the stored value").isEqualTo(3);
		this.admin.resetLimits(this.queue, QueueLimits.Setting.CONCURRENCY);
		await().atMost(BOUND).until(() -> restarted.getConcurrency() == 1);
	}

}
