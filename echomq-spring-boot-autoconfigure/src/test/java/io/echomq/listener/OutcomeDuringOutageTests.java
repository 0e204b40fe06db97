package io.echomq.listener;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.echomq.EchoMqTemplate;
import io.echomq.annotation.EchoJob;
import io.echomq.core.JobId;
import io.echomq.core.internal.KeyType;
import io.echomq.test.TestServer;
import io.lettuce.core.api.async.RedisAsyncCommands;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests of a job whose handler returns while Redis refuses every script, as every master
 * of a cluster answers {@code CLUSTERDOWN} for a few seconds of a failover: its
 * completion is kept and sent until it is recorded, so the job runs once, not again after
 * its lease; one the server refuses for longer than the lease is kept by renewing the
 * lease while the job is still held.
 *
 * @author EchoMQ
 */
class OutcomeDuringOutageTests {

	/** Longer than the 0.7 s an outcome was once retried for, shorter than the lease. */
	private static final Duration OUTAGE = Duration.ofMillis(1500);

	@Test
	void completionSentDuringAnOutageShorterThanTheLeaseIsRecordedAndTheJobRunsOnce() throws Exception {
		runAsOwnUser("5s", (listener, admin, probe, user) -> {
			acl(admin, "SETUSER", user, "-@scripting");
			listener.gate.countDown();
			// the outage's length is the fault injected, not a wait for something to
			// happen
			Thread.sleep(OUTAGE.toMillis());
			assertThat(probe.row("outage", listener.id)).as("the completion was refused during the outage")
				.containsEntry("state", "active");
			acl(admin, "SETUSER", user, "+@all");
		});
	}

	@Test
	void completionRefusedLongerThanTheLeaseIsKeptByRenewingTheLeaseAndTheJobRunsOnce() throws Exception {
		runAsOwnUser("2s", (listener, admin, probe, user) -> {
			// the completion declares the queue's metrics key, a renewal only the active
			// set
			// and the row: the server refuses the one and takes the other
			acl(admin, "SETUSER", user, "resetkeys", "~*:active", "~*:job:*");
			Double leased = probe.score("outage", KeyType.ACTIVE, listener.id);
			assertThat(leased).isNotNull();
			listener.gate.countDown();
			await().atMost(Duration.ofSeconds(15))
				.untilAsserted(() -> assertThat(probe.score("outage", KeyType.ACTIVE, listener.id))
					.as("lease deadline, renewed past the lease it had when the handler returned")
					.isGreaterThan(leased + 2000));
			assertThat(probe.row("outage", listener.id)).containsEntry("state", "active");
			acl(admin, "SETUSER", user, "~*");
		});
	}

	/**
	 * Run a job whose handler waits for its gate, as an ACL user of its own that the
	 * fault narrows and then restores, and check that the job completed after one run
	 * with nothing unrecorded or reaped.
	 */
	private static void runAsOwnUser(String lease, Fault fault) throws Exception {
		TestServer server = ListenerTestSupport.sharedServer();
		String prefix = ListenerTestSupport.uniquePrefix();
		String user = "outage-" + prefix;
		try (ListenerTestSupport.Probe probe = new ListenerTestSupport.Probe(server, prefix)) {
			StringRedisTemplate admin = probe.template();
			acl(admin, "SETUSER", user, "on", ">secret", "~*", "&*", "+@all");
			try {
				ListenerTestSupport
					.runner(List.of("spring.data.redis.host=" + server.host(),
							"spring.data.redis.port=" + server.port(), "spring.data.redis.username=" + user,
							"spring.data.redis.password=secret"), prefix)
					.withUserConfiguration(GatedListener.class)
					.withPropertyValues("echomq.queues.outage.lease=" + lease)
					.run((context) -> {
						GatedListener listener = context.getBean(GatedListener.class);
						QueueListenerContainer container = context.getBean(EchoJobListenerRegistry.class)
							.getContainer("outage");
						listener.id = context.getBean(EchoMqTemplate.class).enqueue("outage", "x");
						assertThat(listener.started.await(10, TimeUnit.SECONDS)).isTrue();
						fault.inject(listener, admin, probe, user);
						await().atMost(Duration.ofSeconds(10)).until(() -> probe.row("outage", listener.id).isEmpty());
						assertThat(listener.runs.get()).as("runs of the job").isEqualTo(1);
						assertThat(container.getUnrecordedCount()).isZero();
						assertThat(probe.metrics("outage")).containsEntry("completed", "1").doesNotContainKey("reaped");
					});
			}
			finally {
				admin.execute((RedisCallback<Object>) (
						connection) -> ((RedisAsyncCommands<byte[], byte[]>) connection.getNativeConnection())
							.aclDeluser(user)
							.toCompletableFuture()
							.join());
			}
		}
	}

	@FunctionalInterface
	private interface Fault {

		void inject(GatedListener listener, StringRedisTemplate admin, ListenerTestSupport.Probe probe, String user)
				throws Exception;

	}

	private static void acl(StringRedisTemplate admin, String... args) {
		byte[][] bytes = Arrays.stream(args).map((arg) -> arg.getBytes(StandardCharsets.UTF_8)).toArray(byte[][]::new);
		admin.execute((RedisCallback<Object>) (connection) -> connection.execute("ACL", bytes));
	}

	static class GatedListener {

		final CountDownLatch started = new CountDownLatch(1);

		final CountDownLatch gate = new CountDownLatch(1);

		final AtomicInteger runs = new AtomicInteger();

		volatile JobId id;

		@EchoJob(queue = "outage")
		void handle(String payload) throws InterruptedException {
			this.runs.incrementAndGet();
			this.started.countDown();
			this.gate.await(30, TimeUnit.SECONDS);
		}

	}

}
