package io.echomq.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.echomq.EchoMqAdmin;
import io.echomq.QueueLimits;
import io.echomq.core.internal.ClaimResult;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.KeyType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Limits stored at run time ({@code set_limits.lua}) win over the configured ones at the
 * next claim, on every server flavour; a reset returns to the configured ones; bad input
 * is refused with nothing written.
 *
 * @author EchoMQ
 */
@EnumSource(names = { "VALKEY", "REDIS", "CLUSTER", "EMBEDDED_REDIS" })
class RuntimeLimitsTests extends EngineTestSupport {

	private static final FlowLimits CONFIGURED = new FlowLimits(8, new FlowLimits.RateLimit(100, Duration.ofMinutes(1)),
			5, null);

	@Test
	void storedLimitsShouldBoundClaimsUntilReset() {
		EchoMqAdmin admin = new EchoMqAdmin(this.jobs);
		admin.setConfiguredLimits((queue) -> CONFIGURED, (queue) -> 4);
		this.jobs.enqueues().enqueueAll(this.queue, payloads(12), EnqueueSpec.defaults());
		QueueLimits set = admin.setLimits(this.queue, new FlowLimits(2, null));
		assertThat(set.stored().maxActive()).isEqualTo(2);
		assertThat(set.effective().maxActive()).isEqualTo(2);
		assertThat(set.effective().rateLimit()).isEqualTo(CONFIGURED.rateLimit());
		ClaimResult capped = claim(5);
		assertThat(capped.jobs()).hasSize(2);
		assertThat(capped.limit()).isEqualTo(ClaimResult.Limit.MAX_ACTIVE);
		assertThat(admin.resetLimits(this.queue, QueueLimits.Setting.MAX_ACTIVE).stored().maxActive()).isNull();
		assertThat(claim(5).jobs()).hasSize(5);
		admin.setLimits(this.queue, new FlowLimits(null, new FlowLimits.RateLimit(7, Duration.ofMinutes(1))));
		ClaimResult rated = claim(5);
		assertThat(rated.jobs()).isEmpty();
		assertThat(rated.limit()).isEqualTo(ClaimResult.Limit.RATE);
		admin.setConcurrency(this.queue, 7);
		QueueLimits read = admin.limits(this.queue);
		assertThat(read.storedConcurrency()).isEqualTo(7);
		assertThat(read.configuredConcurrency()).isEqualTo(4);
		assertThat(read.stored().rateLimit()).isEqualTo(new FlowLimits.RateLimit(7, Duration.ofMinutes(1)));
		QueueLimits reset = admin.resetLimits(this.queue);
		assertThat(reset.stored().isLimited()).isFalse();
		assertThat(reset.effective()).isEqualTo(CONFIGURED);
		assertThat(reset.effectiveConcurrency()).isEqualTo(4);
		assertThat(this.redis.hasKey(key(KeyType.LIMITS))).isFalse();
		ClaimResult configured = claim(5);
		assertThat(configured.jobs()).hasSize(1);
		assertThat(configured.limit()).isEqualTo(ClaimResult.Limit.MAX_ACTIVE);
	}

	@Test
	void storedLaneMaxActiveShouldBoundEachLane() {
		EchoMqAdmin admin = new EchoMqAdmin(this.jobs);
		this.jobs.enqueues().enqueueAll(this.queue, payloads(3), EnqueueSpec.defaults().withLane("a"));
		this.jobs.enqueues().enqueueAll(this.queue, payloads(3), EnqueueSpec.defaults().withLane("b"));
		admin.setLimits(this.queue, new FlowLimits(null, null, 1, null));
		assertThat(claim(6).jobs()).hasSize(2);
		admin.resetLimits(this.queue, QueueLimits.Setting.LANE_MAX_ACTIVE);
		assertThat(claim(6).jobs()).hasSize(4);
	}

	@Test
	void aWriteShouldReachEveryPartitionEachEnforcingItsShare() {
		EchoMqAdmin admin = new EchoMqAdmin(this.jobs);
		admin.setPartitioning(QueuePartitioning.of(Map.of(this.queue, 2)));
		admin.setLimits(this.queue, new FlowLimits(4, null));
		for (String partition : admin.getPartitioning().forQueue(this.queue).names()) {
			this.jobs.enqueues().enqueueAll(partition, payloads(3), EnqueueSpec.defaults());
			ClaimResult share = this.jobs.claims().claim(partition, LEASE, 3, FlowLimits.none());
			assertThat(share.jobs()).as("partition %s", partition).hasSize(2);
			assertThat(share.limit()).isEqualTo(ClaimResult.Limit.MAX_ACTIVE);
		}
		assertThat(admin.limits(this.queue).stored().maxActive()).isEqualTo(4);
		admin.resetLimits(this.queue);
		for (String partition : admin.getPartitioning().forQueue(this.queue).names()) {
			assertThat(this.jobs.claims().claim(partition, LEASE, 3, FlowLimits.none()).jobs()).hasSize(1);
		}
	}

	@Test
	void badInputShouldBeRefusedWithNothingWritten() {
		EchoMqAdmin admin = new EchoMqAdmin(this.jobs);
		admin.setLimits(this.queue, new FlowLimits(3, null));
		Map<String, String> before = this.redis.<String, String>opsForHash().entries(key(KeyType.LIMITS));
		List<Map<String, String>> refused = List.of(Map.of("rate", "-5", "period", "1000"),
				Map.of("rate", "5", "period", "0"), Map.of("rate", "5"), Map.of("max_active", "2", "burst", "4"),
				Map.of("max_active", "1.5"));
		for (Map<String, String> fields : refused) {
			assertThatIllegalArgumentException().isThrownBy(() -> this.jobs.admin().setLimits(this.queue, fields))
				.withMessageContaining("nothing was written");
		}
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.jobs.admin().resetLimits(this.queue, List.of("max_active", "period")))
			.withMessageContaining("unknown limit period");
		assertThat(this.redis.<String, String>opsForHash().entries(key(KeyType.LIMITS))).isEqualTo(before)
			.containsEntry("max_active", "3");
		assertThatIllegalArgumentException().isThrownBy(() -> admin.setConcurrency(this.queue, 0));
		assertThatIllegalArgumentException().isThrownBy(() -> admin.setLimits(this.queue, FlowLimits.none()));
	}

	private ClaimResult claim(int max) {
		return this.jobs.claims().claim(this.queue, LEASE, max, CONFIGURED);
	}

	private String key(KeyType type) {
		return this.keyspace.queueKey(this.queue, type.suffix());
	}

	private static List<String> payloads(int count) {
		List<String> payloads = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			payloads.add("p" + i);
		}
		return payloads;
	}

}
