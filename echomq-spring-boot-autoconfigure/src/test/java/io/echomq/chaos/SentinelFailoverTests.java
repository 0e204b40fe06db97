package io.echomq.chaos;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;

import io.echomq.annotation.EchoJob;
import io.echomq.core.JobId;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.inspect.AuditReport;
import io.echomq.listener.JobContext;
import io.echomq.test.TestRedisServer;
import io.echomq.test.server.LocalSentinel;
import io.echomq.test.server.RedisServerProcess;
import io.echomq.test.server.ServerFlavor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.support.GenericApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A primary with one replica under three Sentinels loses its primary while an application
 * enqueues and consumes: killed ({@code kill -9}, then brought back empty), or demoted by
 * a switchover ({@code SENTINEL FAILOVER}, the old primary running on as a replica). The
 * application's only Redis settings are {@code spring.data.redis.sentinel.master} and
 * {@code nodes}. Once the Sentinels promote the replica, the application finds it through
 * them, the scripts are sent again by body (the promoted replica's script cache is
 * empty), and work goes on. Replication is asynchronous, so an enqueue the old primary
 * acknowledged but had not yet sent to its replica can be lost: the test counts those and
 * asserts each was acknowledged within the replication window before the kill. The old
 * primary then comes back empty and the Sentinels make it a replica of the new one.
 *
 * @author EchoMQ
 */
@Tag("chaos")
@ParameterizedClass(name = "{0}")
@EnumSource(SentinelFailoverTests.Fault.class)
class SentinelFailoverTests {

	private static final String QUEUE = "sentinel";

	private static final int JOBS = 1500;

	/**
	 * The most a lost enqueue may precede the kill: the replication window, with slack.
	 */
	private static final long REPLICATION_WINDOW_MS = 1000;

	/**
	 * Most the completions may stop for: the Sentinels' down-after (2 s), the election
	 * and promotion, and the client's reconnect backoff, with slack for a busy machine.
	 */
	private static final Duration STALL_BOUND = Duration.ofSeconds(30);

	private ConfigurableApplicationContext application;

	private final Fault fault;

	private LocalSentinel sentinel;

	SentinelFailoverTests(Fault fault) {
		this.fault = fault;
	}

	@AfterEach
	void stop() {
		if (this.application != null) {
			this.application.close();
		}
		if (this.sentinel != null) {
			this.sentinel.close();
		}
	}

	@Test
	@Timeout(240)
	void primaryFailsOverToTheReplicaWithBootsDefaultSentinelSettings() throws Exception {
		this.sentinel = TestRedisServer.sentinel(ServerFlavor.VALKEY, 1, 3);
		Queue<Run> runs = new ConcurrentLinkedQueue<>();
		this.application = start(Chaos.uniquePrefix(), runs);
		Engine jobs = this.application.getBean(Engine.class);
		RedisServerProcess primary = this.sentinel.primary();
		long start = System.nanoTime();
		EnqueueSpec spec = EnqueueSpec.defaults().withMaxAttempts(10);
		try (Producer producer = new Producer(jobs, QUEUE, JOBS, Duration.ofMillis(5), (n) -> "\"p" + n + "\"",
				(n) -> spec)
			.pauseAfterFailure(Duration.ofMillis(100))
			.start()) {
			await().atMost(Duration.ofSeconds(30)).until(() -> runs.size() >= JOBS / 5);
			long evalFallbacksBefore = jobs.executor().getEvalFallbacks();
			int acknowledgedAtKill = producer.acknowledgedCount();
			long killedAt = System.currentTimeMillis();
			long killed = System.nanoTime();
			RedisServerProcess promoted = this.fault.apply(this.sentinel, primary);
			double failover = Chaos.secondsSince(killed);
			await("producing again").atMost(Duration.ofSeconds(60))
				.until(() -> producer.acknowledgedCount() > acknowledgedAtKill + 50);
			double producerGap = Chaos.secondsSince(killed);
			if (this.fault == Fault.KILL) {
				primary.restart();
			}
			await("old primary back as a replica").atMost(Duration.ofSeconds(60))
				.until(() -> this.sentinel.replicas().contains(primary));
			// a switched-over primary takes writes until it is made a replica
			long settledAt = (this.fault == Fault.KILL) ? killedAt : System.currentTimeMillis();
			long oldPrimaryWritableMillis = settledAt - killedAt;
			assertThat(producer.awaitDone(Duration.ofSeconds(120))).as("producer finished").isTrue();
			long produced = System.nanoTime();
			await("drained").atMost(Duration.ofSeconds(90))
				.pollInterval(Duration.ofMillis(100))
				.ignoreExceptions()
				.until(() -> Chaos.locations(jobs, QUEUE).live() == 0);
			AuditReport audit = Chaos.audit(jobs, QUEUE);
			long evalFallbacks = jobs.executor().getEvalFallbacks() - evalFallbacksBefore;
			long reaped = Chaos.metric(jobs, QUEUE, "reaped");
			this.application.close();

			Set<String> ran = new HashSet<>();
			runs.forEach((run) -> ran.add(run.id().toString()));
			List<JobId> acknowledged = producer.acknowledged();
			Set<String> acknowledgedIds = new HashSet<>();
			acknowledged.forEach((id) -> acknowledgedIds.add(id.toString()));
			List<JobId> lost = acknowledged.stream().filter((id) -> !ran.contains(id.toString())).toList();
			long lostAfterKill = lost.stream().filter((id) -> producer.acknowledgedAt(id) > settledAt).count();
			long lostBeforeWindow = lost.stream()
				.filter((id) -> producer.acknowledgedAt(id) < killedAt - REPLICATION_WINDOW_MS)
				.count();
			long acknowledgedInWindow = acknowledged.stream()
				.filter((id) -> producer.acknowledgedAt(id) >= killedAt - REPLICATION_WINDOW_MS
						&& producer.acknowledgedAt(id) <= settledAt)
				.count();
			long ambiguous = ran.stream().filter((id) -> !acknowledgedIds.contains(id)).count();
			// up to the producer's end: a job reaped after its lease runs alone at the
			// end
			// and would measure the lease, not the failover
			long stall = Chaos.longestGap(runs.stream().map(Run::at).toList(), killed, produced);
			Chaos.report("sentinel-" + this.fault.name().toLowerCase(Locale.ROOT), "server",
					primary.flavor().name().toLowerCase(Locale.ROOT) + "-" + primary.version() + "-sentinel-1+1x3",
					"enqueued", acknowledged.size(), "enqueueErrors", producer.failures(), "ambiguousWritten",
					ambiguous, "completed", ran.size(), "runs", runs.size(), "duplicateRuns", runs.size() - ran.size(),
					"reruns", reaped, "lost", lost.size(), "acknowledgedInWindow", acknowledgedInWindow,
					"evalFallbacks", evalFallbacks, "oldPrimaryWritableMillis", oldPrimaryWritableMillis,
					"failoverMillis", Math.round(failover * 1000), "producerGapMillis", Math.round(producerGap * 1000),
					"longestStallMillis", Math.round(stall / 1e6), "seconds", Chaos.secondsSince(start));
			assertThat(promoted).isNotSameAs(primary);
			assertThat(audit.violations()).isEmpty();
			assertThat(audit.total()).isZero();
			assertThat(lostAfterKill).as("lost jobs acknowledged after the old primary stopped taking writes").isZero();
			assertThat(lostBeforeWindow).as("lost jobs acknowledged long before the kill").isZero();
			assertThat((long) lost.size()).as("lost jobs").isLessThanOrEqualTo(acknowledgedInWindow);
			assertThat(acknowledged.subList(acknowledgedAtKill + 50, acknowledged.size()))
				.as("jobs enqueued after the failover all ran")
				.allSatisfy((id) -> assertThat(ran).contains(id.toString()));
			if (this.fault == Fault.KILL) {
				// a switchover can end with the work done on the old primary before the
				// application moves, so it need not meet the empty script cache
				assertThat(evalFallbacks).as("scripts sent again to the promoted replica").isPositive();
			}
			assertThat(Duration.ofNanos(stall)).as("longest time without a completion after the kill")
				.isLessThan(STALL_BOUND);
		}
	}

	private ConfigurableApplicationContext start(String prefix, Queue<Run> runs) {
		return new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.initializers(
					(ctx) -> ((GenericApplicationContext) ctx).registerBean(Listener.class, () -> new Listener(runs)))
			.run("--spring.data.redis.sentinel.master=" + this.sentinel.masterName(),
					"--spring.data.redis.sentinel.nodes=" + String.join(",", this.sentinel.sentinelNodes()),
					"--spring.application.name=sentinel", "--echomq.key-prefix=" + prefix);
	}

	/**
	 * How the primary is lost.
	 */
	enum Fault {

		/** {@code kill -9}: the Sentinels find it down and promote the replica. */
		KILL {

			@Override
			RedisServerProcess apply(LocalSentinel sentinel, RedisServerProcess primary) {
				sentinel.kill(primary);
				return sentinel.awaitFailover(primary, FAILOVER_TIMEOUT);
			}

		},

		/** {@code SENTINEL FAILOVER}: the primary runs on and is made a replica. */
		SWITCHOVER {

			@Override
			RedisServerProcess apply(LocalSentinel sentinel, RedisServerProcess primary) {
				return sentinel.switchover(FAILOVER_TIMEOUT);
			}

		};

		private static final Duration FAILOVER_TIMEOUT = Duration.ofSeconds(60);

		abstract RedisServerProcess apply(LocalSentinel sentinel, RedisServerProcess primary);

	}

	/**
	 * One handler run: the job and when ({@link System#nanoTime()}).
	 */
	record Run(JobId id, long at) {

	}

	/**
	 * An application as a user writes it: auto-configuration and one listener.
	 */
	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class Application {

	}

	/**
	 * The listener of the queue.
	 */
	static class Listener {

		private final Queue<Run> runs;

		Listener(Queue<Run> runs) {
			this.runs = runs;
		}

		@EchoJob(queue = QUEUE)
		void handle(String payload, JobContext context) throws InterruptedException {
			// simulated work, not synchronisation
			Thread.sleep(ThreadLocalRandom.current().nextLong(1, 6));
			this.runs.add(new Run(context.id(), System.nanoTime()));
		}

	}

}
