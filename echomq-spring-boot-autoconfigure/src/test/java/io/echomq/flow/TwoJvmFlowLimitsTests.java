package io.echomq.flow;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.echomq.EchoMqAdmin;
import io.echomq.EchoMqTemplate;
import io.echomq.core.EngineServer;
import io.echomq.core.EnqueueOptions;
import io.echomq.core.FlowLimits;
import io.echomq.core.Keyspace;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.KeyType;
import io.echomq.inspect.AuditReport;
import io.echomq.inspect.QueueAuditor;
import io.echomq.inspect.QueueInspector;
import io.echomq.inspect.QueueNodes;
import io.echomq.listener.ListenerTestSupport;
import io.echomq.test.ChildJvm;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The cluster-wide flow limits hold across two JVMs: a child JVM runs the same
 * application ({@link FlowNodeApplication}) as a context in this JVM, both consuming the
 * same queues on one server. What happened is read from the server, never from one JVM:
 * the handlers of both count themselves in and out in one script each
 * ({@link FlowLedger}), a sampler reads the queue's active set, and the starts are the
 * server times the claim scripts recorded. Runs on Valkey, on Redis and on the shared
 * local cluster (three masters), where both JVMs reach the queue's keys through cluster
 * connections.
 *
 * @author EchoMQ
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(180)
@ParameterizedClass(name = "on {0}")
@EnumSource(names = { "VALKEY", "REDIS", "CLUSTER" })
class TwoJvmFlowLimitsTests {

	private static final String CHILD = "child";

	private static final String PARENT = "parent";

	private final String prefix = ListenerTestSupport.uniquePrefix();

	private List<String> connection;

	private Process child;

	private Path childLog;

	private LettuceConnectionFactory connectionFactory;

	private StringRedisTemplate template;

	private FlowLedger ledger;

	@Parameter
	EngineServer server;

	@BeforeParameterizedClassInvocation
	void startChild() throws Exception {
		if (this.server.unavailability().isPresent()) {
			// each test is skipped with the reason
			return;
		}
		EngineServer.Target target = this.server.target();
		this.connection = connection(target);
		this.connectionFactory = target.connect();
		this.template = new StringRedisTemplate(this.connectionFactory);
		this.ledger = new FlowLedger(this.template, this.prefix);
		this.childLog = Files.createTempFile("echomq-flow-node-", ".log");
		List<String> args = new ArrayList<>(
				List.of("--echomq.key-prefix=" + this.prefix, "--flow.node=" + CHILD, "--spring.main.banner-mode=off"));
		this.connection.forEach((property) -> args.add("--" + property));
		FlowNodeApplication.PROPERTIES.forEach((property) -> args.add("--" + property));
		this.child = ChildJvm.start(FlowNodeApplication.class, this.childLog, args);
		Process started = this.child;
		await("child JVM ready").atMost(Duration.ofSeconds(90))
			.pollInterval(Duration.ofMillis(100))
			.failFast("child JVM exited", () -> !started.isAlive())
			.until(() -> Files.readString(this.childLog).contains(FlowNodeApplication.READY));
	}

	@BeforeEach
	void skipWithoutServer() {
		this.server.unavailability().ifPresent(Assumptions::abort);
	}

	@AfterParameterizedClassInvocation
	void stopChild() throws Exception {
		if (this.child != null) {
			this.child.destroyForcibly();
			this.child.waitFor(10, TimeUnit.SECONDS);
		}
		if (this.childLog != null) {
			Files.deleteIfExists(this.childLog);
		}
		if (this.connectionFactory != null) {
			this.connectionFactory.destroy();
		}
	}

	@Test
	void capsAreNeverExceededAcrossTwoJvms() {
		node().run((context) -> {
			EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
			String active = new Keyspace(this.prefix).queueKey(FlowNodeApplication.CAPPED, KeyType.ACTIVE.suffix());
			AtomicLong mostActive = new AtomicLong();
			AtomicBoolean sampling = new AtomicBoolean(true);
			Thread sampler = new Thread(() -> {
				while (sampling.get()) {
					Long size = this.template.opsForZSet().zCard(active);
					mostActive.accumulateAndGet((size != null) ? size : 0, Math::max);
				}
			}, "active-sampler");
			sampler.start();
			try {
				for (int i = 0; i < 40; i++) {
					template.enqueue(FlowNodeApplication.CAPPED, "job-" + i);
					String lane = "tenant-" + (i % 3);
					template.enqueue(FlowNodeApplication.LANED, lane, EnqueueOptions.defaults().withLane(lane));
				}
				await("every capped and laned job handled").atMost(Duration.ofSeconds(60))
					.until(() -> this.ledger.done(FlowNodeApplication.CAPPED) == 40
							&& this.ledger.done(FlowNodeApplication.LANED) == 40);
			}
			finally {
				sampling.set(false);
				sampler.join();
			}
			assertThat(this.ledger.peak(FlowNodeApplication.CAPPED)).as("handlers running at once, both JVMs")
				.isEqualTo(FlowNodeApplication.MAX_ACTIVE);
			assertThat(mostActive.get()).as("largest active set sampled on the server")
				.isPositive()
				.isLessThanOrEqualTo(FlowNodeApplication.MAX_ACTIVE);
			for (int lane = 0; lane < 3; lane++) {
				assertThat(this.ledger.peak(FlowNodeApplication.LANED + "/tenant-" + lane)).as("lane tenant-%d", lane)
					.isOne();
			}
			assertThat(this.ledger.peak(FlowNodeApplication.LANED)).as("the lanes ran side by side").isGreaterThan(1);
			assertBothNodesStarted(FlowNodeApplication.CAPPED);
			assertBothNodesStarted(FlowNodeApplication.LANED);
			assertClean(context.getBean(Engine.class), FlowNodeApplication.CAPPED);
			assertClean(context.getBean(Engine.class), FlowNodeApplication.LANED);
		});
	}

	@Test
	void rateLimitIsNeverExceededAcrossTwoJvms() {
		node().run((context) -> {
			EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
			int jobs = 36;
			for (int i = 0; i < jobs; i++) {
				template.enqueue(FlowNodeApplication.LIMITED, "job-" + i);
			}
			await("every limited job handled").atMost(Duration.ofSeconds(60))
				.until(() -> this.ledger.done(FlowNodeApplication.LIMITED) == jobs);
			List<Long> starts = this.ledger.starts(FlowNodeApplication.LIMITED);
			long period = FlowNodeApplication.PERIOD.toMillis();
			assertThat(starts).hasSize(jobs);
			for (long end : starts) {
				long inWindow = starts.stream().filter((t) -> t > end - period && t <= end).count();
				assertThat(inWindow).as("starts in the %d ms window ending at %d", period, end)
					.isLessThanOrEqualTo(FlowNodeApplication.RATE);
			}
			// 36 starts at 6 per window need at least five full windows after the first
			assertThat(starts.get(jobs - 1) - starts.get(0)).isGreaterThanOrEqualTo(5 * period);
			assertBothNodesStarted(FlowNodeApplication.LIMITED);
			assertClean(context.getBean(Engine.class), FlowNodeApplication.LIMITED);
		});
	}

	@Test
	void pauseSetInThisJvmStopsTheOtherJvmsClaimsUntilResumed() {
		// this JVM runs no listener: every job of the queue is the child's to claim
		ListenerTestSupport.runner(this.connection, this.prefix).run((context) -> {
			EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
			Engine jobs = context.getBean(Engine.class);
			template.enqueue(FlowNodeApplication.PAUSABLE, "before");
			await("the child handles the queue").atMost(Duration.ofSeconds(30))
				.until(() -> this.ledger.done(FlowNodeApplication.PAUSABLE) == 1);
			assertThat(context.getBean(EchoMqAdmin.class).pause(FlowNodeApplication.PAUSABLE)).isTrue();
			for (int i = 0; i < 10; i++) {
				template.enqueue(FlowNodeApplication.PAUSABLE, "while-paused-" + i);
			}
			await("nothing claimed while paused").during(Duration.ofMillis(1500))
				.atMost(Duration.ofSeconds(5))
				.until(() -> this.ledger.startedBy(FlowNodeApplication.PAUSABLE, CHILD) == 1
						&& new QueueInspector(jobs).stats(FlowNodeApplication.PAUSABLE).pending() == 10);
			assertThat(context.getBean(EchoMqAdmin.class).resume(FlowNodeApplication.PAUSABLE)).isTrue();
			await("the child claims again once resumed").atMost(Duration.ofSeconds(10))
				.until(() -> this.ledger.done(FlowNodeApplication.PAUSABLE) == 11);
			assertThat(this.ledger.startedBy(FlowNodeApplication.PAUSABLE, CHILD)).isEqualTo(11);
			assertClean(jobs, FlowNodeApplication.PAUSABLE);
		});
	}

	/**
	 * Limits stored at run time through the admin (as the endpoint stores them) bind both
	 * JVMs from their next claim: a queue configured at 100/s is changed to 300/s, then
	 * to 20/s. In no wall-clock second that starts after a write returned do the starts
	 * (the server times the claims recorded) exceed the limit written, and the raise is
	 * used. A stored listener concurrency reaches both JVMs' listeners within the bound
	 * the admin states.
	 */
	@Test
	void limitsChangedAtRunTimeHoldAcrossTwoJvms() {
		node().run((context) -> {
			EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
			EchoMqAdmin admin = context.getBean(EchoMqAdmin.class);
			String queue = FlowNodeApplication.RETUNED;
			List<String> payloads = new ArrayList<>();
			for (int i = 0; i < 900; i++) {
				payloads.add("job-" + i);
			}
			template.enqueueAll(queue, payloads);
			long first = admin.serverTime().toEpochMilli();
			runFor(admin, first, Duration.ofMillis(2000));
			admin.setLimits(queue, new FlowLimits(null, new FlowLimits.RateLimit(300, Duration.ofSeconds(1))));
			long raised = admin.serverTime().toEpochMilli();
			runFor(admin, raised, Duration.ofMillis(2000));
			admin.setLimits(queue, new FlowLimits(null, new FlowLimits.RateLimit(20, Duration.ofSeconds(1))));
			long lowered = admin.serverTime().toEpochMilli();
			long end = runFor(admin, lowered, Duration.ofMillis(2500));
			admin.setConcurrency(queue, 3);
			QueueNodes nodes = new QueueNodes(context.getBean(Engine.class));
			// the stated bound, about a second while a container claims or idles, then a
			// beat
			await("both listeners run 3 handlers").atMost(Duration.ofSeconds(5))
				.until(() -> nodes.live(queue).size() == 2
						&& nodes.live(queue).stream().allMatch((listener) -> listener.concurrency() == 3));
			List<Long> starts = this.ledger.starts(queue);
			assertThat(perSecond(starts, first, raised)).as("starts per second at the configured 100/s")
				.isNotEmpty()
				.allSatisfy((count) -> assertThat(count).isLessThanOrEqualTo(FlowNodeApplication.RETUNED_RATE));
			assertThat(perSecond(starts, raised, lowered)).as("starts per second at 300/s stored")
				.allSatisfy((count) -> assertThat(count).isLessThanOrEqualTo(300))
				.anySatisfy((count) -> assertThat(count).isGreaterThan(FlowNodeApplication.RETUNED_RATE));
			assertThat(perSecond(starts, lowered, end)).as("starts per second at 20/s stored")
				.isNotEmpty()
				.allSatisfy((count) -> assertThat(count).isLessThanOrEqualTo(20));
			assertBothNodesStarted(queue);
			admin.resetLimits(queue);
			admin.setLimits(queue, new FlowLimits(null, new FlowLimits.RateLimit(100_000, Duration.ofSeconds(1))));
			await("the rest drained").atMost(Duration.ofSeconds(20)).until(() -> this.ledger.done(queue) == 900);
			admin.resetLimits(queue);
			assertClean(context.getBean(Engine.class), queue);
		});
	}

	/**
	 * Let the nodes drain until {@code length} of server time passed since {@code from}.
	 * @return the server time then
	 */
	private static long runFor(EchoMqAdmin admin, long from, Duration length) {
		await().atMost(length.plusSeconds(5))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> admin.serverTime().toEpochMilli() >= from + length.toMillis());
		return admin.serverTime().toEpochMilli();
	}

	/**
	 * The starts in each whole wall-clock second (server time) in {@code [from, to)}.
	 */
	private static List<Long> perSecond(List<Long> starts, long from, long to) {
		List<Long> counts = new ArrayList<>();
		for (long second = (from + 999) / 1000 * 1000; second + 1000 <= to; second += 1000) {
			long start = second;
			counts.add(starts.stream().filter((t) -> t >= start && t < start + 1000).count());
		}
		return counts;
	}

	private ApplicationContextRunner node() {
		return ListenerTestSupport.runner(this.connection, this.prefix)
			.withUserConfiguration(FlowNodeApplication.Node.class)
			.withPropertyValues("flow.node=" + PARENT)
			.withPropertyValues(FlowNodeApplication.PROPERTIES.toArray(String[]::new));
	}

	private void assertBothNodesStarted(String queue) {
		assertThat(this.ledger.startedBy(queue, PARENT)).as("jobs of %s started in this JVM", queue).isPositive();
		assertThat(this.ledger.startedBy(queue, CHILD)).as("jobs of %s started in the child JVM", queue).isPositive();
	}

	/**
	 * Return the {@code spring.data.redis.*} properties of a server (or cluster).
	 */
	private static List<String> connection(EngineServer.Target target) {
		String address = target.arguments()[1];
		if ("cluster".equals(target.arguments()[0])) {
			return List.of("spring.data.redis.cluster.nodes=" + address);
		}
		int colon = address.lastIndexOf(':');
		return List.of("spring.data.redis.host=" + address.substring(0, colon),
				"spring.data.redis.port=" + address.substring(colon + 1));
	}

	private static void assertClean(Engine jobs, String queue) {
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			AuditReport report = new QueueAuditor(jobs).audit(queue, Duration.ofSeconds(30));
			assertThat(report.violations()).isEmpty();
			assertThat(report.total()).isZero();
		});
	}

}
