package io.echomq.listener;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;

import io.echomq.EchoMqTemplate;
import io.echomq.annotation.EchoJob;
import io.echomq.core.EnqueueOptions;
import io.echomq.core.FlowLimits;
import io.echomq.core.JobId;
import io.echomq.core.internal.ClaimResult;
import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.KeyType;
import io.echomq.inspect.QueueNodes;
import io.echomq.maintenance.internal.EchoMqMaintenance;
import io.echomq.test.TestServer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.data.redis.core.RedisCallback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The maintenance ticks sleep until the earliest run-at or lease deadline they know of,
 * yet stay prompt across nodes: two application contexts on one real Valkey server play
 * two nodes. The server runs on this machine, so its clock (which scripts read) is the
 * test's clock.
 * <p>
 * The bounds are 250 ms: the design's lateness is a few milliseconds (a wake-up token,
 * one read, a timer), and the margin covers a loaded CI machine (two cores shared with
 * other builds); the measured figures are printed.
 *
 * @author EchoMQ
 */
class IdleWakeUpTests {

	private static final long BOUND_MS = 250;

	private static final TestServer server = ListenerTestSupport.sharedServer();

	private final String prefix = ListenerTestSupport.uniquePrefix();

	private ApplicationContextRunner runner() {
		return ListenerTestSupport.runner(server, this.prefix);
	}

	@Test
	void delayedJobsEnqueuedByAnotherNodeRunAtTheirRunAt() {
		// node A listens, with an idle check far longer than the delays: only a wake-up
		// can make it promote in time
		runner().withUserConfiguration(ReminderListener.class)
			.withPropertyValues("echomq.maintenance.idle-check=60s")
			.run((nodeA) -> runner().run((nodeB) -> {
				EchoMqTemplate template = nodeB.getBean(EchoMqTemplate.class);
				ReminderListener listener = warmedUp(nodeA, template);
				Instant start = Instant.now();
				// the schedule's head, far away: its token finds node A asleep
				template.enqueue("reminders", "far", EnqueueOptions.delayed(Duration.ofMinutes(10)));
				// before the head: pushes a token
				Instant early = start.plusMillis(1200);
				JobId first = template.enqueue("reminders", "early", EnqueueOptions.defaults().withRunAt(early));
				// after the new head: no token, node A learns of it from the pass at
				// 'early'
				Instant later = start.plusMillis(1700);
				JobId second = template.enqueue("reminders", "later", EnqueueOptions.defaults().withRunAt(later));
				await().atMost(Duration.ofSeconds(10)).until(() -> listener.runs.size() == 2);
				long firstLate = listener.runs.get(first) - early.toEpochMilli();
				long secondLate = listener.runs.get(second) - later.toEpochMilli();
				System.out.printf("delayed job of another node ran %d ms (before the head) and %d ms (after it) "
						+ "past its run-at%n", firstLate, secondLate);
				assertThat(firstLate).isBetween(0L, BOUND_MS);
				assertThat(secondLate).isBetween(0L, BOUND_MS);
			}));
	}

	@Test
	void delayedJobOfAnotherNodeOnAPartitionedQueueRunsAtItsRunAt() {
		// the token lands on one partition's wake list; node A's one BLPOP names them all
		String partitions = "echomq.queues.reminders.partitions=4";
		runner().withUserConfiguration(ReminderListener.class)
			.withPropertyValues(partitions, "echomq.maintenance.idle-check=60s")
			.run((nodeA) -> runner().withPropertyValues(partitions).run((nodeB) -> {
				EchoMqTemplate template = nodeB.getBean(EchoMqTemplate.class);
				ReminderListener listener = warmedUp(nodeA, template);
				Instant runAt = Instant.now().plusMillis(1200);
				JobId id = template.enqueue("reminders", "partitioned",
						EnqueueOptions.defaults().withRunAt(runAt).withPartitionKey("customer-7"));
				await().atMost(Duration.ofSeconds(10)).until(() -> listener.runs.containsKey(id));
				long late = listener.runs.get(id) - runAt.toEpochMilli();
				System.out.printf("delayed job of another node on a partitioned queue ran %d ms past its run-at%n",
						late);
				assertThat(late).isBetween(0L, BOUND_MS);
			}));
	}

	@Test
	void leaseLostOnAnotherNodeIsReapedAtItsDeadline() {
		// node A ticks the queue with no listener of its own; node B claims and goes away
		runner().withPropertyValues("echomq.queues.leases.concurrency=1", "echomq.maintenance.idle-check=1s")
			.run((nodeA) -> runner().run((nodeB) -> {
				EchoMqMaintenance scheduler = nodeA.getBean(EchoMqMaintenance.class);
				await().atMost(Duration.ofSeconds(10)).until(() -> scheduler.getReapTicks() > 0);
				Engine jobs = nodeB.getBean(Engine.class);
				JobId id = nodeB.getBean(EchoMqTemplate.class).enqueue("leases", "lost");
				ClaimResult claimed = jobs.claims().claim("leases", Duration.ofMillis(2500), 1, FlowLimits.none());
				assertThat(claimed.jobs()).extracting(ClaimedJob::id).containsExactly(id);
				Instant deadline = claimed.jobs().get(0).leaseDeadline();
				try (ListenerTestSupport.Probe probe = new ListenerTestSupport.Probe(server, this.prefix)) {
					await().atMost(Duration.ofSeconds(10))
						.pollInterval(Duration.ofMillis(5))
						.until(() -> probe.members("leases", KeyType.PENDING).contains(id.toString()));
					long late = System.currentTimeMillis() - deadline.toEpochMilli();
					System.out.printf("lost lease reaped %d ms past its deadline%n", late);
					assertThat(late).isBetween(0L, BOUND_MS);
					assertThat(probe.row("leases", id)).containsEntry("state", "pending");
				}
			}));
	}

	@Test
	void idleListenerAndTicksSendAlmostNothing() {
		runner().withUserConfiguration(ReminderListener.class).run((node) -> {
			EchoMqMaintenance scheduler = node.getBean(EchoMqMaintenance.class);
			await().atMost(Duration.ofSeconds(10))
				.until(() -> scheduler.getPromoteTicks() > 1 && scheduler.getReapTicks() > 1);
			try (ListenerTestSupport.Probe probe = new ListenerTestSupport.Probe(server, this.prefix)) {
				long start = commandsProcessed(probe);
				// an idle queue: a wait of 10 s on the wake list and a read of the
				// schedule
				// and of the leases every 5 s, so a few commands in 3 s; a tick that
				// polled
				// or spun would send hundreds
				await().during(Duration.ofSeconds(3))
					.atMost(Duration.ofSeconds(4))
					.until(() -> commandsProcessed(probe) - start <= 20);
			}
		});
	}

	@Test
	void anIdleListenerBeatsIntoItsNodeRegistryOnlyOnceAMinute() {
		runner().withUserConfiguration(ReminderListener.class)
			.withPropertyValues("echomq.listener.idle-wait=200ms")
			.run((node) -> {
				QueueNodes registry = new QueueNodes(node.getBean(Engine.class));
				Duration idleEvery = ListenerBeacon.IDLE_BEAT.plusMillis(200);
				// the loop turns every 200 ms: once the figures stopped moving, the next
				// beat says so
				await().atMost(Duration.ofSeconds(20))
					.until(() -> registry.live("reminders")
						.stream()
						.anyMatch((entry) -> entry.every().equals(idleEvery)));
				Instant seen = registry.live("reminders").get(0).seen();
				// a listener beating every 5 s would have beaten again in these 6 s
				await().during(Duration.ofSeconds(6))
					.atMost(Duration.ofSeconds(7))
					.until(() -> registry.live("reminders").get(0).seen().equals(seen));
				node.getBean(EchoMqTemplate.class).enqueue("reminders", "call home");
				Duration moving = ListenerBeacon.BEAT.plusMillis(200);
				await().atMost(Duration.ofSeconds(10))
					.until(() -> registry.live("reminders").get(0).every().equals(moving)
							&& registry.live("reminders").get(0).completed() == 1);
			});
	}

	/**
	 * Return the commands the server ran, less this test's own {@code INFO} calls.
	 */
	private static long commandsProcessed(ListenerTestSupport.Probe probe) {
		Properties stats = probe.template()
			.execute((RedisCallback<Properties>) (connection) -> connection.serverCommands().info("commandstats"));
		long calls = 0;
		for (String name : stats.stringPropertyNames()) {
			if (name.startsWith("cmdstat_") && !name.equals("cmdstat_info")) {
				String value = stats.getProperty(name);
				int start = value.indexOf("calls=") + "calls=".length();
				calls += Long.parseLong(value.substring(start, value.indexOf(',', start)));
			}
		}
		return calls;
	}

	/**
	 * Waits for node A's first promote pass and runs one job through it, so that the
	 * figures measured next are not the first job's class loading.
	 */
	private static ReminderListener warmedUp(ApplicationContext nodeA, EchoMqTemplate template) {
		EchoMqMaintenance scheduler = nodeA.getBean(EchoMqMaintenance.class);
		await().atMost(Duration.ofSeconds(10)).until(() -> scheduler.getPromoteTicks() > 0);
		ReminderListener listener = nodeA.getBean(ReminderListener.class);
		JobId warm = template.enqueue("reminders", "warm-up");
		await().atMost(Duration.ofSeconds(10)).until(() -> listener.runs.containsKey(warm));
		listener.runs.clear();
		return listener;
	}

	static class ReminderListener {

		final Map<JobId, Long> runs = new ConcurrentHashMap<>();

		@EchoJob(queue = "reminders")
		void handle(JobContext context, String payload) {
			this.runs.put(context.id(), System.currentTimeMillis());
		}

	}

}
