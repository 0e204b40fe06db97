package io.echomq.listener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.echomq.EchoMqTemplate;
import io.echomq.annotation.EchoJob;
import io.echomq.autoconfigure.EchoMqEventsAutoConfiguration;
import io.echomq.core.JobId;
import io.echomq.events.JobEvent;
import io.echomq.events.JobEventGap;
import io.echomq.events.JobEventStreamContainer;
import io.echomq.events.JobEventStreamListener;
import io.echomq.events.JobEventType;
import io.echomq.test.TestServer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Job events as applications configure them: the workers of a queue with
 * {@code echomq.queues.*.events.enabled} write its event stream, and an application
 * context with a {@link JobEventStreamListener} bean, not the one that ran the jobs,
 * hears them, across a restart of its context.
 *
 * @author EchoMQ
 */
class JobEventsIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final TestServer server = ListenerTestSupport.sharedServer();

	private static final List<JobEvent> heard = new CopyOnWriteArrayList<>();

	private static final List<JobEventGap> gaps = new CopyOnWriteArrayList<>();

	private final String prefix = ListenerTestSupport.uniquePrefix();

	@Test
	void anotherContextHearsEveryTransitionOfAThousandJobsAcrossItsRestart() {
		heard.clear();
		gaps.clear();
		runner().withUserConfiguration(MailHandler.class)
			.withPropertyValues("echomq.queues.mail.events.enabled=true", "echomq.queues.mail.events.max-length=50000")
			.run((workers) -> {
				EchoMqTemplate template = workers.getBean(EchoMqTemplate.class);
				assertThat(workers).doesNotHaveBean(JobEventStreamContainer.class);
				List<JobId> ids = new ArrayList<>();
				listening().run((first) -> {
					assertThat(first).hasSingleBean(JobEventStreamContainer.class);
					for (int i = 0; i < 500; i++) {
						ids.add(template.enqueue("mail", "m" + i));
					}
					await().atMost(TIMEOUT).until(() -> completed() >= 100);
				});
				int before = heard.size();
				for (int i = 500; i < 1000; i++) {
					ids.add(template.enqueue("mail", "m" + i));
				}
				listening().run((second) -> await().atMost(TIMEOUT).until(() -> completed() == 1000));
				assertThat(before).isPositive().isLessThan(3000);
				Map<String, List<JobEventType>> perJob = new HashMap<>();
				heard.forEach(
						(event) -> perJob.computeIfAbsent(event.id(), (id) -> new ArrayList<>()).add(event.type()));
				for (JobId id : ids) {
					assertThat(perJob.get(id.toString())).as(id.toString())
						.containsExactly(JobEventType.ADDED, JobEventType.CLAIMED, JobEventType.COMPLETED);
				}
				assertThat(heard).extracting(JobEvent::sequence).doesNotHaveDuplicates().isSorted();
				assertThat(gaps).isEmpty();
			});
	}

	@Test
	void aListenerOfAPartitionedQueueHearsEveryPartition() {
		heard.clear();
		gaps.clear();
		runner().withUserConfiguration(MailHandler.class)
			.withPropertyValues("echomq.queues.mail.partitions=3", "echomq.queues.mail.events.enabled=true")
			.run((workers) -> {
				EchoMqTemplate template = workers.getBean(EchoMqTemplate.class);
				List<JobId> ids = new ArrayList<>();
				listening().withPropertyValues("echomq.queues.mail.partitions=3").run((listener) -> {
					assertThat(listener.getBean(JobEventStreamContainer.class).getReaders()).hasSize(3);
					for (int i = 0; i < 300; i++) {
						ids.add(template.enqueue("mail", "m" + i));
					}
					await().atMost(TIMEOUT).until(() -> completed() == 300);
				});
				Map<String, List<JobEventType>> perJob = new HashMap<>();
				heard.forEach(
						(event) -> perJob.computeIfAbsent(event.id(), (id) -> new ArrayList<>()).add(event.type()));
				for (JobId id : ids) {
					// a job claimed ahead may be handed back (released) and claimed again
					assertThat(perJob.get(id.toString())).as(id.toString())
						.startsWith(JobEventType.ADDED, JobEventType.CLAIMED)
						.endsWith(JobEventType.CLAIMED, JobEventType.COMPLETED);
				}
				assertThat(heard).allMatch((event) -> event.queue().equals("mail"));
				assertThat(gaps).isEmpty();
				try (ListenerTestSupport.Probe probe = new ListenerTestSupport.Probe(server, this.prefix)) {
					assertThat(probe.template().hasKey(this.prefix + ":{mail}:events")).isFalse();
				}
			});
	}

	@Test
	void aQueueNotOptedInWritesNoStream() {
		runner().withUserConfiguration(MailHandler.class).run((workers) -> {
			EchoMqTemplate template = workers.getBean(EchoMqTemplate.class);
			JobId id = template.enqueue("mail", "m");
			try (ListenerTestSupport.Probe probe = new ListenerTestSupport.Probe(server, this.prefix)) {
				await().atMost(TIMEOUT).until(() -> probe.metrics("mail").getOrDefault("completed", "0").equals("1"));
				assertThat(probe.template().hasKey(this.prefix + ":{mail}:events")).isFalse();
			}
			assertThat(id).isNotNull();
		});
	}

	private static long completed() {
		return heard.stream().filter((event) -> event.type() == JobEventType.COMPLETED).count();
	}

	private ApplicationContextRunner listening() {
		return runner().withUserConfiguration(AuditListener.class);
	}

	private ApplicationContextRunner runner() {
		return ListenerTestSupport.runner(server, this.prefix)
			.withConfiguration(AutoConfigurations.of(EchoMqEventsAutoConfiguration.class));
	}

	@Configuration(proxyBeanMethods = false)
	static class MailHandler {

		@Bean
		Mailer mailer() {
			return new Mailer();
		}

	}

	static class Mailer {

		@EchoJob(queue = "mail")
		void send(String message) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class AuditListener {

		@Bean
		JobEventStreamListener auditListener() {
			return new JobEventStreamListener() {

				@Override
				public String queue() {
					return "mail";
				}

				@Override
				public String id() {
					return "audit";
				}

				@Override
				public void onEvent(JobEvent event) {
					heard.add(event);
				}

				@Override
				public void onGap(JobEventGap gap) {
					gaps.add(gap);
				}

			};
		}

	}

}
