package io.echomq.core;

import io.echomq.core.internal.ClaimResult;
import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.KeyType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * The queue-wide flow limits the claim script enforces (cap on active jobs,
 * sliding-window rate limit), against a real server.
 *
 * @author EchoMQ
 */
@EnumSource(names = { "VALKEY", "REDIS", "CLUSTER" })
class FlowLimitsTests extends EngineTestSupport {

	@Test
	void maxActiveShouldCapClaimsAcrossCallers() {
		enqueue(10);
		FlowLimits limits = new FlowLimits(3, null);
		ClaimResult first = this.jobs.claims().claim(this.queue, LEASE, 2, limits);
		assertThat(first.jobs()).hasSize(2);
		assertThat(first.isLimited()).isFalse();
		ClaimResult second = this.engine.newEngine().claims().claim(this.queue, LEASE, 5, limits);
		assertThat(second.jobs()).hasSize(1);
		assertThat(second.limit()).isEqualTo(ClaimResult.Limit.MAX_ACTIVE);
		assertThat(second.retryAfter()).isNull();
		ClaimResult third = this.jobs.claims().claim(this.queue, LEASE, 5, limits);
		assertThat(third.jobs()).isEmpty();
		assertThat(third.limit()).isEqualTo(ClaimResult.Limit.MAX_ACTIVE);
		assertThat(this.redis.opsForZSet().size(key(KeyType.ACTIVE))).isEqualTo(3);
		assertThat(this.redis.hasKey(key(KeyType.THROTTLED))).isTrue();
	}

	@Test
	void completionUnderACapShouldPushAWakeUpAndFreeASlot() {
		enqueue(5);
		FlowLimits limits = new FlowLimits(2, null);
		List<ClaimedJob> claimed = this.jobs.claims().claim(this.queue, LEASE, 5, limits).jobs();
		assertThat(claimed).hasSize(2);
		this.redis.delete(key(KeyType.WAKE));
		ClaimedJob done = claimed.get(0);
		assertThat(this.jobs.outcomes().complete(this.queue, done.id(), done.token()).isApplied()).isTrue();
		assertThat(this.redis.opsForList().size(key(KeyType.WAKE))).isEqualTo(1);
		ClaimedJob failed = claimed.get(1);
		assertThat(this.jobs.outcomes()
			.retry(this.queue, failed.id(), failed.token(), "boom", Duration.ofMinutes(1))
			.isApplied()).isTrue();
		// the retry heads the empty schedule, so a schedule token ('d') comes with the
		// wake-up
		assertThat(this.redis.opsForList().range(key(KeyType.WAKE), 0, -1)).containsExactlyInAnyOrder("1", "1", "d");
		assertThat(this.jobs.claims().claim(this.queue, LEASE, 5, limits).jobs()).hasSize(2);
	}

	@Test
	void completionWithoutACapShouldNotPushAWakeUp() {
		enqueue(1);
		ClaimedJob job = this.jobs.claims().claim(this.queue, LEASE, 1, FlowLimits.none()).jobs().get(0);
		this.redis.delete(key(KeyType.WAKE));
		this.jobs.outcomes().complete(this.queue, job.id(), job.token());
		assertThat(this.redis.opsForList().size(key(KeyType.WAKE))).isZero();
		assertThat(this.redis.hasKey(key(KeyType.STARTS))).isFalse();
	}

	@Test
	void rateLimitShouldSayWhenTheWindowReopens() {
		enqueue(20);
		FlowLimits limits = fivePerMinute();
		// held to part of what it asked for: the window is full now, and says so
		assertHeldByTheRate(this.jobs.claims().claim(this.queue, LEASE, 8, limits), 5);
		assertHeldByTheRate(this.engine.newEngine().claims().claim(this.queue, LEASE, 8, limits), 0);
		assertThat(this.redis.opsForZSet().size(key(KeyType.STARTS))).isEqualTo(5);
		assertThat(this.redis.getExpire(key(KeyType.STARTS))).isPositive();
	}

	@Test
	void rateLimitedClaimOfLaneJobsShouldSayWhenTheWindowReopens() {
		List<String> payloads = List.of("a1", "a2", "a3", "a4", "a5", "a6");
		this.jobs.enqueues().enqueueAll(this.queue, payloads, EnqueueSpec.defaults().withLane("a"));
		this.jobs.enqueues().enqueueAll(this.queue, payloads, EnqueueSpec.defaults().withLane("b"));
		assertHeldByTheRate(this.jobs.claims().claim(this.queue, LEASE, 8, fivePerMinute()), 5);
	}

	@Test
	void rateLimitedClaimThatRanOutOfJobsShouldNotWaitForTheWindow() {
		enqueue(3);
		FlowLimits limits = fivePerMinute();
		ClaimResult first = this.jobs.claims().claim(this.queue, LEASE, 8, limits);
		assertThat(first.jobs()).hasSize(3);
		// the window still has room for 2: a job enqueued now may start at once
		assertThat(first.retryAfter()).isNull();
		enqueue(1);
		assertThat(this.engine.newEngine().claims().claim(this.queue, LEASE, 8, limits).jobs()).hasSize(1);
	}

	@Test
	void rateLimitWindowShouldSlide() {
		enqueue(10);
		FlowLimits limits = new FlowLimits(null, new FlowLimits.RateLimit(3, Duration.ofMillis(300)));
		ClaimResult first = this.jobs.claims().claim(this.queue, LEASE, 10, limits);
		assertThat(first.jobs()).hasSize(3);
		Instant claimedAt = first.jobs().get(0).claimedAt();
		List<ClaimedJob> next = new ArrayList<>();
		await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20)).until(() -> {
			next.addAll(this.jobs.claims().claim(this.queue, LEASE, 10, limits).jobs());
			return !next.isEmpty();
		});
		assertThat(next).hasSize(3);
		assertThat(Duration.between(claimedAt, next.get(0).claimedAt())).isGreaterThanOrEqualTo(Duration.ofMillis(300));
	}

	@Test
	void rateLimitShouldNeverBeExceededByConcurrentClaimers() throws Exception {
		int limit = 7;
		Duration period = Duration.ofMillis(200);
		enqueue(60);
		FlowLimits limits = new FlowLimits(null, new FlowLimits.RateLimit(limit, period));
		List<Engine> engines = List.of(this.jobs, this.engine.newEngine(), this.engine.newEngine());
		List<ClaimedJob> claimed = Collections.synchronizedList(new ArrayList<>());
		ExecutorService pool = Executors.newFixedThreadPool(engines.size());
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<?>> futures = new ArrayList<>();
			for (Engine engine : engines) {
				futures.add(pool.submit(() -> {
					start.await();
					while (claimed.size() < 60) {
						ClaimResult result = engine.claims().claim(this.queue, LEASE, 3, limits);
						claimed.addAll(result.jobs());
						if (result.retryAfter() != null) {
							TimeUnit.MILLISECONDS.sleep(result.retryAfter().toMillis());
						}
					}
					return null;
				}));
			}
			start.countDown();
			for (Future<?> future : futures) {
				future.get(30, TimeUnit.SECONDS);
			}
		}
		finally {
			pool.shutdownNow();
		}
		assertThat(claimed).hasSize(60);
		List<Long> times = claimed.stream().map((job) -> job.claimedAt().toEpochMilli()).sorted().toList();
		for (int i = 0; i < times.size(); i++) {
			long end = times.get(i);
			long inWindow = times.stream().filter((t) -> t > end - period.toMillis() && t <= end).count();
			assertThat(inWindow).as("starts in the window ending at %d", end).isLessThanOrEqualTo(limit);
		}
	}

	@Test
	void limitsShouldRejectNonPositiveValues() {
		assertThatIllegalArgumentException().isThrownBy(() -> new FlowLimits(0, null))
			.withMessageContaining("max-active must be positive, was 0");
		assertThatIllegalArgumentException().isThrownBy(() -> new FlowLimits.RateLimit(0, Duration.ofSeconds(1)))
			.withMessageContaining("rate-limit.limit must be positive, was 0");
		assertThatIllegalArgumentException().isThrownBy(() -> new FlowLimits.RateLimit(5, Duration.ZERO))
			.withMessageContaining("rate-limit.period must be at least 1ms, was PT0S");
	}

	private static FlowLimits fivePerMinute() {
		return new FlowLimits(null, new FlowLimits.RateLimit(5, Duration.ofMinutes(1)));
	}

	private static void assertHeldByTheRate(ClaimResult result, int claimed) {
		assertThat(result.jobs()).hasSize(claimed);
		assertThat(result.limit()).isEqualTo(ClaimResult.Limit.RATE);
		assertThat(result.retryAfter()).isNotNull()
			.isGreaterThan(Duration.ofSeconds(50))
			.isLessThanOrEqualTo(Duration.ofMinutes(1));
	}

	private void enqueue(int count) {
		List<String> payloads = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			payloads.add("p" + i);
		}
		this.jobs.enqueues().enqueueAll(this.queue, payloads, EnqueueSpec.defaults());
	}

	private String key(KeyType type) {
		return this.jobs.keyspace().queueKey(this.queue, type.suffix());
	}

}
