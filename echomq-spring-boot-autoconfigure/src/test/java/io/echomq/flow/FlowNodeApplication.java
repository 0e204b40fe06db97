package io.echomq.flow;

import java.time.Duration;
import java.util.List;

import io.echomq.annotation.EchoJob;
import io.echomq.listener.JobContext;
import io.echomq.test.ChildJvm;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * One node of an application whose queues have cluster-wide flow limits: the same
 * listeners and {@code echomq.queues.*} settings run in the test JVM and, through
 * {@link #main}, in a child JVM, and every handler writes what it did to the
 * {@link FlowLedger} on the server. The child prints {@value #READY} once its listeners
 * run, and ends when its standard input closes.
 *
 * @author EchoMQ
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
@Import(FlowNodeApplication.Node.class)
public class FlowNodeApplication {

	static final String READY = "FLOW NODE READY";

	static final String CAPPED = "capped";

	static final String LANED = "laned";

	static final String LIMITED = "limited";

	static final String PAUSABLE = "pausable";

	static final String RETUNED = "retuned";

	/**
	 * The configured rate of {@link #RETUNED} per second, which limits stored at run time
	 * override.
	 */
	static final int RETUNED_RATE = 100;

	static final int MAX_ACTIVE = 3;

	static final int RATE = 6;

	static final Duration PERIOD = Duration.ofMillis(400);

	/** The flow limits every node runs with. */
	static final List<String> PROPERTIES = List.of("echomq.queues." + CAPPED + ".max-active=" + MAX_ACTIVE,
			"echomq.queues." + LANED + ".lanes.max-active=1", "echomq.queues." + LIMITED + ".rate-limit.limit=" + RATE,
			"echomq.queues." + LIMITED + ".rate-limit.period=" + PERIOD.toMillis() + "ms",
			"echomq.queues." + RETUNED + ".rate-limit.limit=" + RETUNED_RATE,
			"echomq.queues." + RETUNED + ".rate-limit.period=1s", "echomq.shutdown.timeout=2s");

	public static void main(String[] args) {
		ChildJvm.onParentExit(() -> System.exit(1));
		SpringApplication application = new SpringApplication(FlowNodeApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.run(args);
		System.out.println(READY);
		System.out.flush();
	}

	/**
	 * What a node runs besides the auto-configuration: the ledger and the listeners.
	 */
	@Configuration(proxyBeanMethods = false)
	@Import(Listeners.class)
	static class Node {

		@Bean
		FlowLedger flowLedger(StringRedisTemplate template, @Value("${echomq.key-prefix}") String prefix) {
			return new FlowLedger(template, prefix);
		}

	}

	static class Listeners {

		private final FlowLedger ledger;

		private final String node;

		Listeners(FlowLedger ledger, @Value("${flow.node}") String node) {
			this.ledger = ledger;
			this.node = node;
		}

		// Per node, fewer slots than the cluster-wide cap (3) and the lanes (3): reaching
		// either
		// takes both JVMs at once, so one node that always wins the race cannot pass
		// alone.
		@EchoJob(queue = CAPPED, concurrency = "2")
		void capped(String payload, JobContext context) throws InterruptedException {
			run(CAPPED, context, 50);
		}

		@EchoJob(queue = LANED, concurrency = "2")
		void laned(String payload, JobContext context) throws InterruptedException {
			run(LANED, context, 40);
		}

		// A node starts at most 4 per period (a job holds its slot for the whole period),
		// fewer
		// than the rate (6): the limit is only reached with both JVMs claiming.
		@EchoJob(queue = LIMITED, concurrency = "4")
		void limited(String payload, JobContext context) throws InterruptedException {
			run(LIMITED, context, PERIOD.toMillis());
		}

		@EchoJob(queue = PAUSABLE, concurrency = "2")
		void pausable(String payload, JobContext context) throws InterruptedException {
			run(PAUSABLE, context, 20);
		}

		// Per node up to 8 handlers of 2 ms: each node alone could start far more than
		// the
		// highest rate the test stores (300/s)
		@EchoJob(queue = RETUNED, concurrency = "8")
		void retuned(String payload, JobContext context) throws InterruptedException {
			run(RETUNED, context, 2);
		}

		private void run(String queue, JobContext context, long millis) throws InterruptedException {
			String lane = context.fields().getOrDefault("lane", "");
			this.ledger.started(queue, lane, this.node, context.job().claimedAt().toEpochMilli());
			try {
				Thread.sleep(millis);
			}
			finally {
				this.ledger.ended(queue, lane);
			}
		}

	}

}
