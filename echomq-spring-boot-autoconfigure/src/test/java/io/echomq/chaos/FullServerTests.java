package io.echomq.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import io.echomq.EchoMqTemplate;
import io.echomq.autoconfigure.EchoMqAutoConfiguration;
import io.echomq.chaos.worker.ChaosWorker;
import io.echomq.chaos.worker.WorkerSettings;
import io.echomq.core.JobId;
import io.echomq.core.ServerOutOfMemoryException;
import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.inspect.AuditReport;
import io.echomq.listener.QueueListenerContainer;
import io.echomq.test.TestServer;
import io.echomq.test.server.ServerOptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A server at {@code maxmemory}: with {@code noeviction} an enqueue fails with a clear
 * error and writes nothing, while a consuming container still drains the queue (claims
 * and completions start by removing an id, and a script that already wrote may go on);
 * with an evicting policy the application warns at start-up. Subclasses choose the
 * server.
 *
 * @author EchoMQ
 */
@ExtendWith(OutputCaptureExtension.class)
@Tag("chaos")
class FullServerTests extends ChaosOnEachFlavor {

	private TestServer server;

	@Test
	@Timeout(120)
	void fullServerRefusesEnqueuesButAConsumingContainerStillDrainsIt() {
		this.server = this.servers.start(this.flavor,
				ServerOptions.builder().maxMemory("3mb").maxMemoryPolicy("noeviction").build());
		String prefix = Chaos.uniquePrefix();
		String queue = "full";
		Ledger ledger = new Ledger();
		long start = System.nanoTime();
		try (ChaosWorker worker = ChaosWorker.onServer(this.server, Duration.ofSeconds(5),
				WorkerSettings.of(prefix).withConcurrency(4).withEventListeners(ledger))) {
			Engine jobs = worker.jobs();
			List<String> chunk = Collections.nCopies(50, "x".repeat(1000));
			List<JobId> written = new ArrayList<>();
			ServerOutOfMemoryException refused = null;
			for (int i = 0; i < 1000 && refused == null; i++) {
				try {
					written.addAll(jobs.enqueues().enqueueAll(queue, chunk, EnqueueSpec.defaults()));
				}
				catch (ServerOutOfMemoryException ex) {
					refused = ex;
				}
			}
			assertThat(refused).as("the server filled up").isNotNull();
			assertThat(refused.getMessage()).contains("'enqueue'")
				.contains("out of memory")
				.contains("nothing was written");
			AuditReport full = Chaos.audit(jobs, queue);
			assertThat(full.violations()).isEmpty();
			assertThat(full.rows()).isEqualTo(written.size());

			// transitions on a full server, one by one: each starts by removing an id, so
			// the server lets it write; a lease renewal must work too, or long handlers
			// would lose their leases on a full server
			ClaimedJob claimed = jobs.claims().claim(queue, Duration.ofSeconds(30), 1).get(0);
			assertThat(jobs.outcomes().extend(queue, claimed.id(), claimed.token(), Duration.ofSeconds(30)).isApplied())
				.as("lease renewal on a full server")
				.isTrue();
			boolean extendRefused = false;
			assertThat(jobs.outcomes().release(queue, claimed.id(), claimed.token()).isApplied()).isTrue();
			assertThat(Chaos.audit(jobs, queue).violations()).isEmpty();

			QueueListenerContainer container = worker.register(queue, (job, context) -> ledger.ran(job.id()));
			worker.start();
			await("drained while full").atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> ledger.ranAll(written) && Chaos.locations(jobs, queue).live() == 0);
			JobId afterwards = await("enqueue accepted again").atMost(Duration.ofSeconds(10))
				.ignoreExceptionsInstanceOf(ServerOutOfMemoryException.class)
				.until(() -> jobs.enqueues().enqueue(queue, "after", EnqueueSpec.defaults()), (id) -> true);
			await().atMost(Duration.ofSeconds(10)).until(() -> ledger.ran(afterwards.toString()));
			assertThat(container.isPollerAlive()).isTrue();
			worker.stop();

			AuditReport report = Chaos.audit(jobs, queue);
			long lost = written.stream().filter((id) -> !ledger.ran(id.toString())).count();
			Chaos.report("maxmemory-noeviction", "server", Chaos.describe(this.server), "enqueued", written.size() + 1,
					"refusedChunkOf", chunk.size(), "completed", Chaos.metric(jobs, queue, "completed"),
					"extendRefusedWhileFull", extendRefused, "lost", lost, "seconds", Chaos.secondsSince(start));
			assertThat(lost).isZero();
			assertThat(report.violations()).isEmpty();
			assertThat(report.total()).isZero();
			assertThat(report.rows()).isZero();
			assertThat(Chaos.metric(jobs, queue, "completed")).isEqualTo(written.size() + 1);
		}
	}

	@Test
	@Timeout(60)
	void evictingPolicyIsWarnedAboutAtStartUp(CapturedOutput output) {
		this.server = this.servers.start(this.flavor,
				ServerOptions.builder().maxMemory("64mb").maxMemoryPolicy("allkeys-lru").build());
		contextRunner().run((context) -> {
			assertThat(context).hasNotFailed();
			context.publishEvent(
					new ApplicationReadyEvent(new SpringApplication(), new String[0], context, Duration.ZERO));
			assertThat(output).contains("maxmemory-policy is 'allkeys-lru'").contains("'noeviction'");
			// the warning is only a warning: the application produces as usual
			assertThat(context.getBean(EchoMqTemplate.class).enqueue("warned", "x")).isNotNull();
		});
		Chaos.command(this.server, "CONFIG", "SET", "maxmemory-policy", "noeviction");
		int before = output.toString().length();
		contextRunner().run((context) -> {
			context.publishEvent(
					new ApplicationReadyEvent(new SpringApplication(), new String[0], context, Duration.ZERO));
			assertThat(output.toString().substring(before)).doesNotContain("maxmemory-policy is");
		});
	}

	private ApplicationContextRunner contextRunner() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class,
					EchoMqAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.host=" + this.server.host(),
					"spring.data.redis.port=" + this.server.port(), "echomq.key-prefix=" + Chaos.uniquePrefix());
	}

}
