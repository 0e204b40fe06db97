package io.echomq.events;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import io.echomq.core.EngineTestSupport;
import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.crypto.PayloadEncryption;
import io.echomq.crypto.PayloadKeys;
import io.echomq.crypto.QueueEncryption;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.stream.Consumer;
import org.springframework.data.redis.connection.stream.ReadOffset;
import org.springframework.data.redis.connection.stream.StreamInfo;
import org.springframework.data.redis.connection.stream.StreamOffset;
import org.springframework.data.redis.connection.stream.StreamReadOptions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Copies of one {@link JobEventStreamListener} (the same jar run as a web node and a
 * worker) share its events as competing consumers with no false gap, or each hear every
 * event when the listener broadcasts; what trimming took is counted exactly, and an
 * encrypted queue's progress is read back through its encryption.
 *
 * @author EchoMQ
 */
@EnumSource(names = { "VALKEY", "REDIS", "EMBEDDED_REDIS" })
class JobEventListenerCopiesTests extends EngineTestSupport {

	private final List<JobEventStreamContainer> containers = new ArrayList<>();

	private final List<Copy> copies = new ArrayList<>();

	@AfterEach
	void stopContainers() {
		this.copies.forEach(Copy::release);
		this.containers.forEach(JobEventStreamContainer::stop);
	}

	@Test
	void twoCopiesOfOneListenerShouldHearEachEventExactlyOnceBetweenThemWithNoGap() {
		this.jobs.events().enable(this.queue, 10_000);
		Copy web = start(new Copy(this.queue, false), "web");
		Copy worker = start(new Copy(this.queue, false), "worker");
		web.hold();
		worker.hold();
		enqueue(1);
		await().atMost(Duration.ofSeconds(30)).until(() -> heard(web, worker) == 1);
		Copy held = web.events.isEmpty() ? worker : web;
		Copy free = (held == web) ? worker : web;
		free.release();
		enqueue(9);
		// the held copy is inside onEvent: the other one takes every new event
		await().atMost(Duration.ofSeconds(30)).until(() -> free.events.size() == 9);
		free.hold();
		held.release();
		enqueue(1);
		await().atMost(Duration.ofSeconds(30)).until(() -> heard(web, worker) == 11);
		if (held.events.size() == 1) {
			// the free copy took event 11 and is held now: the other one takes the next
			enqueue(1);
			await().atMost(Duration.ofSeconds(30)).until(() -> held.events.size() == 2);
		}
		free.release();
		enqueue(20);
		long total = this.redis.opsForStream().size(this.jobs.events().key(this.queue));
		await().atMost(Duration.ofSeconds(30)).until(() -> heard(web, worker) == total);
		List<Long> sequences = Stream.concat(web.events.stream(), worker.events.stream())
			.map(JobEvent::sequence)
			.sorted()
			.toList();
		assertThat(sequences).hasSize((int) total).doesNotHaveDuplicates().startsWith(1L).endsWith(total);
		assertThat(held.events.get(1).sequence()).isGreaterThan(10);
		assertThat(web.gaps).isEmpty();
		assertThat(worker.gaps).isEmpty();
		assertThat(web.missed.get() + worker.missed.get()).isZero();
		assertThat(web.counted.get() + worker.counted.get()).isEqualTo(total);
		assertThat(consumers("audit")).containsExactlyInAnyOrder("web", "worker");
	}

	@Test
	void pendingEntriesOfACopyThatTheStreamTrimmedShouldBeCountedAsAGapExactly() {
		this.jobs.events().enable(this.queue, 10);
		String key = this.jobs.events().key(this.queue);
		enqueue(5);
		this.redis.opsForStream().createGroup(key, ReadOffset.from("0-0"), "audit");
		// the copy "web" took events 1 to 5 and stopped before it acknowledged them
		assertThat(this.redis.opsForStream()
			.read(Consumer.from("audit", "web"), StreamReadOptions.empty().count(5),
					StreamOffset.create(key, ReadOffset.lastConsumed())))
			.hasSize(5);
		enqueue(1000);
		long oldest = JobEvent
			.sequence(this.redis.opsForStream().range(key, Range.unbounded()).get(0).getId().getValue());
		assertThat(oldest).isGreaterThan(6);
		Copy web = start(new Copy(this.queue, false), "web");
		await().atMost(Duration.ofSeconds(30))
			.until(() -> !web.events.isEmpty() && web.events.get(web.events.size() - 1).sequence() == 1005);
		assertThat(web.gaps).hasSize(2);
		assertThat(web.gaps.get(0)).satisfies((gap) -> {
			assertThat(gap.after()).isZero();
			assertThat(gap.resumedAt()).isEqualTo(6);
			assertThat(gap.missed()).isEqualTo(5);
		});
		assertThat(web.gaps.get(1)).satisfies((gap) -> {
			assertThat(gap.after()).isEqualTo(5);
			assertThat(gap.resumedAt()).isEqualTo(oldest);
			assertThat(gap.missed()).isEqualTo(oldest - 6);
		});
		assertThat(web.missed.get()).isEqualTo(oldest - 1);
		assertThat(web.events.size() + web.missed.get()).isEqualTo(1005);
		assertThat(this.redis.opsForStream().pending(key, "audit").getTotalPendingMessages()).isZero();
	}

	@Test
	void entriesACopyThatIsGoneLeftUnacknowledgedShouldBeTakenOverByAnother() {
		this.jobs.events().enable(this.queue, 10_000);
		String key = this.jobs.events().key(this.queue);
		enqueue(5);
		this.redis.opsForStream().createGroup(key, ReadOffset.from("0-0"), "audit");
		// the copy "gone" took events 1 to 5 and died before it acknowledged them
		assertThat(this.redis.opsForStream()
			.read(Consumer.from("audit", "gone"), StreamReadOptions.empty().count(5),
					StreamOffset.create(key, ReadOffset.lastConsumed())))
			.hasSize(5);
		enqueue(5);
		Copy web = new Copy(this.queue, false);
		start(web, "web", Duration.ofMillis(1));
		await().atMost(Duration.ofSeconds(30)).until(() -> web.events.size() == 10);
		assertThat(web.events).extracting(JobEvent::sequence).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);
		assertThat(web.gaps).isEmpty();
		await().atMost(Duration.ofSeconds(30))
			.until(() -> this.redis.opsForStream().pending(key, "audit").getTotalPendingMessages() == 0);
	}

	@Test
	void copiesOfABroadcastingListenerShouldEachHearEveryEvent() {
		this.jobs.events().enable(this.queue, 10_000);
		Copy web = start(new Copy(this.queue, true), "web");
		Copy worker = start(new Copy(this.queue, true), "worker");
		await().atMost(Duration.ofSeconds(30)).until(() -> groups().size() == 2);
		assertThat(groups()).containsExactlyInAnyOrder("audit web", "audit worker");
		enqueue(50);
		await().atMost(Duration.ofSeconds(30)).until(() -> web.events.size() == 50 && worker.events.size() == 50);
		assertThat(web.events).extracting(JobEvent::sequence)
			.containsExactlyElementsOf(worker.events.stream().map(JobEvent::sequence).toList())
			.startsWith(1L)
			.endsWith(50L)
			.doesNotHaveDuplicates();
		assertThat(web.gaps).isEmpty();
		assertThat(worker.gaps).isEmpty();
	}

	@Test
	void aListenerShouldReadTheProgressOfAnEncryptedQueueThroughItsEncryption() {
		this.jobs.events().enable(this.queue, 10_000);
		QueueEncryption encryption = QueueEncryption
			.of(new PayloadEncryption(PayloadKeys.of("v1", Map.of("v1", new byte[32]))), Set.of(this.queue));
		Copy web = start(new Copy(this.queue, false), "web");
		enqueue(1);
		ClaimedJob job = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		String plain = "{\"step\":\"card 4111\"}";
		this.jobs.outcomes().progress(this.queue, job.id(), job.token(), encryption.seal(this.queue, plain));
		this.jobs.outcomes().progress(this.queue, job.id(), job.token(), 50);
		await().atMost(Duration.ofSeconds(30)).until(() -> web.events.size() == 4);
		JobEvent object = web.events.get(2);
		assertThat(object.type()).isEqualTo(JobEventType.PROGRESS);
		assertThat(object.progress()).startsWith(PayloadEncryption.PREFIX).doesNotContain("4111");
		assertThat(object.decrypt(encryption).progress()).isEqualTo(plain);
		assertThat(web.events.get(3).decrypt(encryption).progress()).isEqualTo("50");
		assertThat(object.decrypt(QueueEncryption.none()).progress()).isEqualTo(object.progress());
	}

	private void enqueue(int count) {
		List<String> payloads = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			payloads.add("p" + i);
		}
		this.jobs.enqueues().enqueueAll(this.queue, payloads, EnqueueSpec.defaults());
	}

	private static long heard(Copy one, Copy other) {
		return one.events.size() + other.events.size();
	}

	private List<String> groups() {
		return this.redis.opsForStream()
			.groups(this.jobs.events().key(this.queue))
			.stream()
			.map(StreamInfo.XInfoGroup::groupName)
			.toList();
	}

	private List<String> consumers(String group) {
		return this.redis.opsForStream()
			.consumers(this.jobs.events().key(this.queue), group)
			.stream()
			.map(StreamInfo.XInfoConsumer::consumerName)
			.toList();
	}

	private Copy start(Copy copy, String instance) {
		return start(copy, instance, JobEventStreamReader.DEFAULT_CLAIM_IDLE);
	}

	private Copy start(Copy copy, String instance, Duration claimIdle) {
		JobEventStreamContainer container = new JobEventStreamContainer(this.redis, this.jobs.events()::key,
				List.of(copy), copy);
		container.setInstance(instance);
		container.setClaimIdle(claimIdle);
		container.start();
		this.containers.add(container);
		this.copies.add(copy);
		return copy;
	}

	/**
	 * One copy of the application's listener "audit"; held, it waits inside
	 * {@code onEvent} after recording the next event until released.
	 */
	private static final class Copy implements JobEventStreamListener, JobEventStreamCounters {

		private final String queue;

		private final boolean broadcast;

		final List<JobEvent> events = new CopyOnWriteArrayList<>();

		final List<JobEventGap> gaps = new CopyOnWriteArrayList<>();

		final AtomicLong counted = new AtomicLong();

		final AtomicLong missed = new AtomicLong();

		private volatile @Nullable CountDownLatch held;

		Copy(String queue, boolean broadcast) {
			this.queue = queue;
			this.broadcast = broadcast;
		}

		void hold() {
			this.held = new CountDownLatch(1);
		}

		void release() {
			CountDownLatch latch = this.held;
			this.held = null;
			if (latch != null) {
				latch.countDown();
			}
		}

		@Override
		public String queue() {
			return this.queue;
		}

		@Override
		public String id() {
			return "audit";
		}

		@Override
		public boolean broadcast() {
			return this.broadcast;
		}

		@Override
		public void onEvent(JobEvent event) {
			this.events.add(event);
			CountDownLatch latch = this.held;
			if (latch != null) {
				try {
					latch.await(30, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
		}

		@Override
		public void onGap(JobEventGap gap) {
			this.gaps.add(gap);
		}

		@Override
		public void onRead(JobEventStreamListener listener, long count) {
			this.counted.addAndGet(count);
		}

		@Override
		public void onGap(JobEventStreamListener listener, long missed) {
			this.missed.addAndGet(missed);
		}

	}

}
