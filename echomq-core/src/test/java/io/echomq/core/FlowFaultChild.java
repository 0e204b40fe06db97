package io.echomq.core;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.ScriptExecutor;
import io.echomq.flow.FlowChild;
import io.echomq.maintenance.internal.EchoMqMaintenance;
import io.echomq.maintenance.internal.MaintenanceSettings;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * The other nodes of {@link FlowFaultTests}, each in a JVM of its own that the test kills
 * with {@code SIGKILL}: {@code work} runs workers (and the maintenance, so the prompt
 * relay) on the given queues until killed; {@code complete} completes one job of a queue
 * and stops before any relay step; {@code apply} completes one job and applies its outbox
 * record on the parent's slot, and stops before removing it. The two last write a marker
 * key when they reached their point and then wait to be killed.
 *
 * @author EchoMQ
 */
public final class FlowFaultChild {

	/** How long a claimed job works. */
	static final long MIN_WORK_MS = 200;

	static final long MAX_WORK_MS = 500;

	private FlowFaultChild() {
	}

	/**
	 * Run as told.
	 * @param args {@code standalone host:port} or {@code cluster host:port,...}, the
	 * ledger tag, the mode ({@code work}, {@code complete} or {@code apply}), then the
	 * queues
	 * @throws InterruptedException if interrupted
	 */
	public static void main(String[] args) throws InterruptedException {
		LettuceConnectionFactory factory = EngineServer.Target.connect(args);
		StringRedisTemplate redis = new StringRedisTemplate(factory);
		Engine jobs = new Engine(new ScriptExecutor(redis), Keyspace.defaults());
		String tag = args[2];
		List<String> queues = List.of(args).subList(4, args.length);
		if ("work".equals(args[3])) {
			EchoMqMaintenance maintenance = new EchoMqMaintenance(jobs,
					new MaintenanceSettings(Duration.ofMillis(200), Duration.ofMillis(200), 100, Duration.ofSeconds(1)),
					() -> queues, ThreadPoolTaskScheduler::new, List.of());
			maintenance.start();
			for (int i = 0; i < 3; i++) {
				Thread worker = new Thread(() -> work(jobs, redis, tag, queues));
				worker.start();
			}
			System.out.println("READY");
			System.out.flush();
			return;
		}
		String queue = queues.get(0);
		ClaimedJob job = claim(jobs, queue);
		handle(jobs, redis, tag, job);
		if ("apply".equals(args[3])) {
			String record = jobs.flows()
				.outbox(queue, 1000)
				.stream()
				.filter((candidate) -> candidate.endsWith(" " + job.id()))
				.findFirst()
				.orElseThrow();
			jobs.flows().apply(queue, record);
		}
		redis.opsForValue().set(markerKey(tag), args[3] + " " + job.id());
		// the test kills this JVM here
		Thread.sleep(Duration.ofMinutes(5).toMillis());
	}

	/**
	 * Run worker loops: claim a job of one of the queues, work, check a parent's
	 * children, record the run, complete it with a result.
	 * @param jobs the engine
	 * @param redis the template
	 * @param tag the ledger tag
	 * @param queues the queues
	 */
	static void work(Engine jobs, StringRedisTemplate redis, String tag, List<String> queues) {
		while (!Thread.currentThread().isInterrupted()) {
			boolean any = false;
			for (String queue : queues) {
				List<ClaimedJob> claimed = jobs.claims().claim(queue, Duration.ofSeconds(2), 1);
				if (!claimed.isEmpty()) {
					any = true;
					handle(jobs, redis, tag, claimed.get(0));
				}
			}
			if (!any) {
				pause(20);
			}
		}
	}

	private static ClaimedJob claim(Engine jobs, String queue) {
		long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
		while (System.nanoTime() < deadline) {
			List<ClaimedJob> claimed = jobs.claims().claim(queue, Duration.ofSeconds(2), 1);
			if (!claimed.isEmpty()) {
				return claimed.get(0);
			}
			pause(20);
		}
		throw new IllegalStateException("No job to claim in " + queue);
	}

	private static void handle(Engine jobs, StringRedisTemplate redis, String tag, ClaimedJob job) {
		pause(ThreadLocalRandom.current().nextLong(MIN_WORK_MS, MAX_WORK_MS + 1));
		for (FlowChild child : FlowChild.of(job.fields())) {
			String result = jobs.results().read(child.queue(), child.id());
			if (!"completed".equals(child.outcome()) || !result(child.id()).equals(result)) {
				redis.opsForList()
					.rightPush(violationsKey(tag), job.id() + " ran with child " + child + " result " + result);
			}
		}
		String name = job.queue() + "/" + job.id();
		redis.opsForHash().increment(runsKey(tag), name, 1);
		redis.opsForList().rightPush(orderKey(tag), name);
		jobs.outcomes().complete(job.queue(), job.id(), job.token(), null, result(job.id()));
	}

	static String result(JobId id) {
		return "\"r-" + id + "\"";
	}

	static String runsKey(String tag) {
		return "flowfault:{" + tag + "}:runs";
	}

	static String orderKey(String tag) {
		return "flowfault:{" + tag + "}:order";
	}

	static String violationsKey(String tag) {
		return "flowfault:{" + tag + "}:violations";
	}

	static String markerKey(String tag) {
		return "flowfault:{" + tag + "}:marker";
	}

	private static void pause(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
