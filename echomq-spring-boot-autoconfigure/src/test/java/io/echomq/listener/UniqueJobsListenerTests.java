package io.echomq.listener;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.echomq.EchoMqTemplate;
import io.echomq.annotation.EchoJob;
import io.echomq.core.EnqueueOptions;
import io.echomq.core.EnqueueResult;
import io.echomq.core.Keyspace;
import io.echomq.core.internal.Engine;
import io.echomq.inspect.QueueAuditor;
import io.echomq.test.TestServer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Unique jobs run by real listener containers: the key is held while the handler runs and
 * released when the container completes or dead-letters the job.
 *
 * @author EchoMQ
 */
class UniqueJobsListenerTests {

	private static final TestServer server = ListenerTestSupport.sharedServer();

	private final String prefix = ListenerTestSupport.uniquePrefix();

	@Test
	void keyIsHeldWhileTheHandlerRunsAndReleasedWhenItCompletes() {
		runner().run((context) -> {
			EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
			Handlers handlers = context.getBean(Handlers.class);
			EnqueueOptions unique = EnqueueOptions.defaults().withUniqueKey("nightly-sync");
			EnqueueResult first = template.enqueueUnique("sync", "first", unique);
			assertThat(first.duplicate()).isFalse();
			assertThat(handlers.started.await(10, TimeUnit.SECONDS)).isTrue();
			EnqueueResult during = template.enqueueUnique("sync", "second", unique);
			assertThat(during.duplicate()).isTrue();
			assertThat(during.id()).isEqualTo(first.id());
			handlers.finish.countDown();
			try (ListenerTestSupport.Probe probe = new ListenerTestSupport.Probe(server, this.prefix)) {
				String key = new Keyspace(this.prefix).uniqueKey("sync", "nightly-sync");
				await().atMost(Duration.ofSeconds(10)).until(() -> !probe.template().hasKey(key));
				assertThat(probe.metrics("sync")).containsEntry("completed", "1").containsEntry("enqueued", "1");
			}
			EnqueueResult after = template.enqueueUnique("sync", "third", unique);
			assertThat(after.duplicate()).isFalse();
			assertThat(after.id()).isNotEqualTo(first.id());
			await().atMost(Duration.ofSeconds(10))
				.until(() -> new QueueAuditor(context.getBean(Engine.class)).audit("sync", Duration.ofSeconds(30))
					.violations()
					.isEmpty() && handlers.runs == 2);
		});
	}

	@Test
	void keyIsReleasedWhenTheContainerDeadLettersTheJob() {
		runner().run((context) -> {
			EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
			EnqueueOptions unique = EnqueueOptions.defaults().withUniqueKey("charge-7");
			EnqueueResult first = template.enqueueUnique("charge", "x", unique);
			try (ListenerTestSupport.Probe probe = new ListenerTestSupport.Probe(server, this.prefix)) {
				await().atMost(Duration.ofSeconds(10))
					.until(() -> "dead".equals(probe.row("charge", first.id()).get("state")));
				assertThat(probe.template().hasKey(new Keyspace(this.prefix).uniqueKey("charge", "charge-7")))
					.isFalse();
			}
			assertThat(template.enqueueUnique("charge", "y", unique).duplicate()).isFalse();
		});
	}

	private ApplicationContextRunner runner() {
		return ListenerTestSupport.runner(server, this.prefix).withBean(Handlers.class, Handlers::new);
	}

	static class Handlers {

		final CountDownLatch started = new CountDownLatch(1);

		final CountDownLatch finish = new CountDownLatch(1);

		volatile int runs;

		@EchoJob(queue = "sync")
		void sync(String payload) throws InterruptedException {
			this.runs++;
			this.started.countDown();
			this.finish.await(30, TimeUnit.SECONDS);
		}

		@EchoJob(queue = "charge")
		void charge(String payload) {
			throw new NonRetryableJobException("card declined");
		}

	}

}
