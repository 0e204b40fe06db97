package io.echomq.core;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.echomq.EchoMqTemplate;
import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.FencingToken;
import io.echomq.core.internal.KeyType;
import io.echomq.support.JacksonPayloadConverter;
import io.echomq.test.ChildJvm;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Awaiting a job's outcome across processes: the script that ends an awaited job
 * publishes it on the queue's done channel ({@code includes/notify.lua}), one
 * subscription per queue and JVM settles the futures, and an outcome reached before the
 * subscription is found by the read that follows it.
 *
 * @author EchoMQ
 */
@EnumSource(names = { "VALKEY", "REDIS", "CLUSTER" })
class AwaitTests extends EngineTestSupport {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private final List<RedisMessageListenerContainer> containers = new ArrayList<>();

	@AfterEach
	void closeWaiters() throws Exception {
		this.jobs.close();
		for (RedisMessageListenerContainer container : this.containers) {
			container.destroy();
		}
	}

	@Test
	void aCompletionShouldCompleteTheFutureWithTheResult() throws Exception {
		JobId id = this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults());
		CompletableFuture<String> future = template().resultOf(this.queue, id, String.class, WAIT);
		ClaimedJob job = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		assertThat(future).isNotDone();
		assertThat(this.jobs.outcomes().complete(this.queue, job.id(), job.token(), null, "\"hello\"").isApplied())
			.isTrue();
		assertThat(future.get(1, TimeUnit.SECONDS)).isEqualTo("hello");
		assertThat(this.redis.opsForZSet().size(key(KeyType.WAITERS))).isZero();
	}

	@Test
	void aVoidCompletionShouldCompleteTheFutureWithNull() throws Exception {
		JobId id = this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults());
		CompletableFuture<String> future = template().resultOf(this.queue, id, String.class, WAIT);
		ClaimedJob job = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		this.jobs.outcomes().complete(this.queue, job.id(), job.token());
		assertThat(future.get(1, TimeUnit.SECONDS)).isNull();
	}

	@Test
	void completeAllShouldNotifyEachAwaitedJob() throws Exception {
		List<JobId> ids = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			ids.add(this.jobs.enqueues().enqueue(this.queue, "p" + i, EnqueueSpec.defaults()));
		}
		CompletableFuture<String> first = template().resultOf(this.queue, ids.get(0), String.class, WAIT);
		CompletableFuture<String> third = template().resultOf(this.queue, ids.get(2), String.class, WAIT);
		List<ClaimedJob> claimed = this.jobs.claims().claim(this.queue, LEASE, 3);
		List<String> results = new ArrayList<>();
		for (ClaimedJob job : claimed) {
			results.add("\"" + job.id() + "\"");
		}
		this.jobs.outcomes()
			.completeAll(this.queue, claimed.stream().map(ClaimedJob::id).toList(),
					claimed.stream().map(ClaimedJob::token).toList(), nulls(3), results);
		assertThat(first.get(1, TimeUnit.SECONDS)).isEqualTo(ids.get(0).toString());
		assertThat(third.get(1, TimeUnit.SECONDS)).isEqualTo(ids.get(2).toString());
	}

	@Test
	void aDeadLetteredJobShouldFailTheFutureWithItsLastError() {
		JobId id = this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults());
		CompletableFuture<String> future = template().resultOf(this.queue, id, String.class, WAIT);
		ClaimedJob job = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		this.jobs.outcomes().deadLetter(this.queue, job.id(), job.token(), "no such customer");
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> future.get(1, TimeUnit.SECONDS))
			.havingCause()
			.isInstanceOfSatisfying(JobFailedException.class,
					(ex) -> assertThat(ex.getLastError()).isEqualTo("no such customer"));
	}

	@Test
	void aLeaseLostOnTheLastAttemptShouldFailTheFutureWhenReaped() {
		JobId id = this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults().withMaxAttempts(1));
		CompletableFuture<String> future = template().resultOf(this.queue, id, String.class, WAIT);
		this.jobs.claims().claim(this.queue, Duration.ofMillis(50), 1);
		await().atMost(Duration.ofSeconds(10)).until(() -> this.jobs.upkeep().reap(this.queue, 10).dead() == 1);
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> future.get(1, TimeUnit.SECONDS))
			.havingCause()
			.isInstanceOfSatisfying(JobFailedException.class,
					(ex) -> assertThat(ex.getLastError()).startsWith("lease expired"));
	}

	@Test
	void aRetryThatIsNotTheLastShouldNotSettleTheFuture() {
		JobId id = this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults());
		CompletableFuture<String> future = template().resultOf(this.queue, id, String.class, WAIT);
		ClaimedJob job = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		this.jobs.outcomes().retry(this.queue, job.id(), job.token(), "try again", Duration.ZERO);
		assertThat(this.redis.opsForZSet().score(key(KeyType.WAITERS), id.toString())).isNotNull();
		assertThat(future).isNotDone();
	}

	@Test
	void aCancelledWaitingJobShouldFailTheFutureAsCancelled() {
		JobId id = this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults());
		CompletableFuture<String> future = template().resultOf(this.queue, id, String.class, WAIT);
		assertThat(this.jobs.admin().cancel(this.queue, id).outcome()).isEqualTo(CancelResult.Outcome.CANCELLED);
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> future.get(1, TimeUnit.SECONDS))
			.withCauseInstanceOf(JobCancelledException.class);
	}

	@Test
	void aCancelledActiveJobShouldFailTheFutureWhenItsWorkerFinishes() {
		JobId id = this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults());
		CompletableFuture<String> future = template().resultOf(this.queue, id, String.class, WAIT);
		ClaimedJob job = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		this.jobs.admin().cancel(this.queue, id);
		assertThat(future).isNotDone();
		this.jobs.outcomes().complete(this.queue, job.id(), job.token(), null, "\"ignored\"");
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> future.get(1, TimeUnit.SECONDS))
			.withCauseInstanceOf(JobCancelledException.class);
	}

	@Test
	void aCancelledJobReleasedAtShutdownShouldFailTheFutureAsCancelled() {
		JobId id = this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults());
		CompletableFuture<String> future = template().resultOf(this.queue, id, String.class, WAIT);
		ClaimedJob job = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		this.jobs.admin().cancel(this.queue, id);
		assertThat(this.jobs.outcomes().release(this.queue, job.id(), job.token()).isApplied()).isFalse();
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> future.get(1, TimeUnit.SECONDS))
			.withCauseInstanceOf(JobCancelledException.class);
		assertThat(this.redis.opsForZSet().size(key(KeyType.WAITERS))).isZero();
	}

	@Test
	void aQuarantinedJobShouldFailTheFuture() {
		JobId id = this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults());
		CompletableFuture<String> future = template().resultOf(this.queue, id, String.class, WAIT);
		this.redis.opsForHash().put(this.keyspace.jobKey(this.queue, id), "attempts", "01");
		assertThat(this.jobs.upkeep().quarantine(this.queue, JobState.PENDING, List.of(id.toString())).quarantined())
			.isEqualTo(1);
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> future.get(1, TimeUnit.SECONDS))
			.havingCause()
			.isInstanceOfSatisfying(JobFailedException.class,
					(ex) -> assertThat(ex.getLastError()).isEqualTo("quarantined"));
		assertThat(this.redis.opsForZSet().size(key(KeyType.WAITERS))).isZero();
	}

	@Test
	void aPurgedJobThatIsAwaitedShouldBePublishedAsDeleted() throws Exception {
		ClaimedJob dead = enqueueAndClaim(LEASE);
		this.jobs.outcomes().deadLetter(this.queue, dead.id(), dead.token(), "gone soon");
		ClaimedJob unawaited = enqueueAndClaim(LEASE);
		this.jobs.outcomes().deadLetter(this.queue, unawaited.id(), unawaited.token(), "gone soon");
		// a caller elsewhere registered (its read of the row still to come) when the
		// purge ran
		this.redis.opsForZSet().add(key(KeyType.WAITERS), dead.id().toString(), Double.MAX_VALUE);
		BlockingQueue<String> heard = listen();
		assertThat(this.jobs.admin().purgeDead(this.queue)).isEqualTo(2);
		assertThat(heard.poll(5, TimeUnit.SECONDS)).isEqualTo("deleted " + dead.id());
		assertThat(heard.poll(200, TimeUnit.MILLISECONDS)).isNull();
		assertThat(this.redis.opsForZSet().size(key(KeyType.WAITERS))).isZero();
	}

	@Test
	void aDeletedJobShouldFailTheFutureAsNotFound() {
		JobId id = this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults());
		CompletableFuture<String> future = template().resultOf(this.queue, id, String.class, WAIT);
		assertThat(this.jobs.admin().delete(this.queue, id).isApplied()).isTrue();
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> future.get(1, TimeUnit.SECONDS))
			.withCauseInstanceOf(JobNotFoundException.class);
	}

	@Test
	void anOutcomeReachedBeforeTheAwaitShouldBeFoundByTheAwait() throws Exception {
		ClaimedJob done = enqueueAndClaim(LEASE);
		this.jobs.outcomes().complete(this.queue, done.id(), done.token(), null, "\"early\"");
		ClaimedJob dead = enqueueAndClaim(LEASE);
		this.jobs.outcomes().deadLetter(this.queue, dead.id(), dead.token(), "early death");
		assertThat(template().await(this.queue, done.id(), String.class, WAIT)).isEqualTo("early");
		assertThatExceptionOfType(JobFailedException.class)
			.isThrownBy(() -> template().await(this.queue, dead.id(), String.class, WAIT))
			.satisfies((ex) -> assertThat(ex.getLastError()).isEqualTo("early death"));
		this.jobs.upkeep().retain(this.queue, Retention.ofCount(10), Retention.DEAD_DEFAULT);
		ClaimedJob retained = enqueueAndClaim(LEASE);
		this.jobs.outcomes().complete(this.queue, retained.id(), retained.token(), null, "\"kept\"");
		assertThat(template().await(this.queue, retained.id(), String.class, WAIT)).isEqualTo("kept");
	}

	@Test
	void anAwaitWithNoOutcomeShouldTimeOutAndLeaveTheJobAlone() {
		JobId id = this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults());
		long before = serverTime();
		assertThatExceptionOfType(AwaitTimeoutException.class)
			.isThrownBy(() -> template().await(this.queue, id, String.class, Duration.ofMillis(300)));
		assertThat(this.redis.opsForZSet().score(key(KeyType.PENDING), id.toString())).isNotNull();
		assertThat(this.redis.opsForZSet().score(key(KeyType.WAITERS), id.toString())).isBetween(before + 250.0,
				before + 2_000.0);
		assertThat(this.jobs.waiters().size()).isZero();
	}

	@Test
	void waiterEntriesWhoseWaitEndedShouldBeTrimmed() {
		this.redis.opsForZSet().add(key(KeyType.WAITERS), "gone-caller", 1);
		JobId id = this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults());
		template().resultOf(this.queue, id, String.class, WAIT);
		assertThat(this.redis.opsForZSet().range(key(KeyType.WAITERS), 0, -1)).containsExactly(id.toString());
	}

	@Test
	void aJobNobodyAwaitsShouldPublishNothing() throws Exception {
		BlockingQueue<String> heard = listen();
		ClaimedJob unawaited = enqueueAndClaim(LEASE);
		this.jobs.outcomes().complete(this.queue, unawaited.id(), unawaited.token(), null, "\"quiet\"");
		ClaimedJob dead = enqueueAndClaim(LEASE);
		this.jobs.outcomes().deadLetter(this.queue, dead.id(), dead.token(), "quiet");
		JobId awaited = this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults());
		CompletableFuture<String> future = template().resultOf(this.queue, awaited, String.class, WAIT);
		ClaimedJob job = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		this.jobs.outcomes().complete(this.queue, job.id(), job.token(), null, "\"loud\"");
		assertThat(future.get(1, TimeUnit.SECONDS)).isEqualTo("loud");
		// one connection publishes in order: the awaited job's message is the first heard
		assertThat(heard.poll(5, TimeUnit.SECONDS)).isEqualTo("completed " + awaited);
		assertThat(heard).isEmpty();
	}

	@Test
	void aJvmThatClosesItsWaitersLosesTheFutureNotTheResult() throws Exception {
		JobId id = this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults());
		CompletableFuture<String> future = template().resultOf(this.queue, id, String.class, WAIT);
		this.jobs.close();
		assertThat(future).isCompletedExceptionally();
		ClaimedJob job = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		this.jobs.outcomes().complete(this.queue, job.id(), job.token(), null, "\"still here\"");
		assertThat(template().result(this.queue, id, String.class)).isEqualTo("still here");
		assertThat(template().await(this.queue, id, String.class, WAIT)).isEqualTo("still here");
	}

	@Test
	void outcomesInAnotherJvmShouldSettleTheFuturesWithinOneSecond() throws Exception {
		Map<String, CompletableFuture<String>> futures = otherJvm("complete", "dead", "cancel");
		assertThat(futures.get("complete").get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo("from the child");
		assertThatExceptionOfType(ExecutionException.class)
			.isThrownBy(() -> futures.get("dead").get(WAIT.toSeconds(), TimeUnit.SECONDS))
			.havingCause()
			.isInstanceOfSatisfying(JobFailedException.class,
					(ex) -> assertThat(ex.getLastError()).isEqualTo("child says no"));
		assertThatExceptionOfType(ExecutionException.class)
			.isThrownBy(() -> futures.get("cancel").get(WAIT.toSeconds(), TimeUnit.SECONDS))
			.withCauseInstanceOf(JobCancelledException.class);
	}

	/**
	 * For each mode, enqueue a job on a queue of its own and await it here while one
	 * child JVM claims each job and ends it as the mode says; each future must settle
	 * within one second of the child's transition. One child for every mode, as a JVM
	 * start costs seconds.
	 */
	private Map<String, CompletableFuture<String>> otherJvm(String... modes) throws Exception {
		Map<String, CompletableFuture<String>> futures = new LinkedHashMap<>();
		Map<String, CompletableFuture<Long>> settledAt = new LinkedHashMap<>();
		String[] connection = this.engine.connectionArguments();
		List<String> args = new ArrayList<>(List.of(connection[0], connection[1]));
		for (String mode : modes) {
			String queue = this.queue + "-" + mode;
			JobId id = this.jobs.enqueues().enqueue(queue, "x", EnqueueSpec.defaults());
			CompletableFuture<String> future = template().resultOf(queue, id, String.class, WAIT);
			futures.put(mode, future);
			settledAt.put(mode, future.handle((value, ex) -> System.currentTimeMillis()));
			args.add(queue);
			args.add(mode);
		}
		Path log = Files.createTempFile("await-child", ".log");
		Process child = ChildJvm.start(AwaitChild.class, log, args);
		try {
			assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
			List<String> lines = Files.readAllLines(log);
			for (String mode : modes) {
				String done = lines.stream()
					.filter((line) -> line.startsWith("DONE " + mode + " "))
					.findFirst()
					.orElse(null);
				assertThat(done).as("child output: %s", lines).isNotNull();
				long transitionAt = Long.parseLong(done.split(" ")[2]);
				assertThat(settledAt.get(mode).get(5, TimeUnit.SECONDS) - transitionAt).as(mode).isLessThan(1_000);
			}
		}
		finally {
			child.destroyForcibly();
		}
		return futures;
	}

	private BlockingQueue<String> listen() {
		BlockingQueue<String> heard = new LinkedBlockingQueue<>();
		CompletableFuture<Void> subscribed = new CompletableFuture<>();
		RedisMessageListenerContainer container = new RedisMessageListenerContainer();
		container.setConnectionFactory(this.connectionFactory);
		container.afterPropertiesSet();
		container.start();
		this.containers.add(container);
		class Listener implements org.springframework.data.redis.connection.MessageListener,
				org.springframework.data.redis.connection.SubscriptionListener {

			@Override
			public void onMessage(org.springframework.data.redis.connection.Message message, byte[] pattern) {
				heard.add(new String(message.getBody(), StandardCharsets.UTF_8));
			}

			@Override
			public void onChannelSubscribed(byte[] channel, long count) {
				subscribed.complete(null);
			}

		}
		container.addMessageListener(new Listener(), new ChannelTopic(key(KeyType.DONE)));
		await().atMost(Duration.ofSeconds(5)).until(subscribed::isDone);
		return heard;
	}

	private String key(KeyType type) {
		return this.keyspace.queueKey(this.queue, type.suffix());
	}

	private long serverTime() {
		return this.redis.execute(
				(org.springframework.data.redis.core.RedisCallback<Long>) (connection) -> connection.serverCommands()
					.time());
	}

	private static List<String> nulls(int size) {
		List<String> nulls = new ArrayList<>();
		for (int i = 0; i < size; i++) {
			nulls.add(null);
		}
		return nulls;
	}

	private EchoMqTemplate template() {
		return new EchoMqTemplate(this.jobs, new JacksonPayloadConverter(JsonMapper.builder().build()), 1024 * 1024,
				(queue) -> 3, List.of());
	}

}
