package io.echomq.core;

import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.KeyType;
import io.echomq.inspect.JobView;
import io.echomq.inspect.NodeListener;
import io.echomq.inspect.QueueAuditor;
import io.echomq.inspect.QueueInspector;
import io.echomq.inspect.QueueNodes;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Which node holds a job, and which nodes listen to a queue, on a real server: a claim
 * writes the claiming node to the row in the HSET that makes it active (the queue's own
 * pending set and its lanes alike), the field stays as the last claimant when the job
 * leaves active and the next claim overwrites it; the node registry keeps one entry per
 * node, stamped with server time, hides and prunes dead entries and drops a node that
 * leaves.
 *
 * @author EchoMQ
 */
@EnumSource(names = { "VALKEY", "REDIS" })
class NodesTests extends EngineTestSupport {

	private static final EchoMqNode A = new EchoMqNode("shop 101@host-a");

	private static final EchoMqNode B = new EchoMqNode("warehouse 202@host-b");

	private QueueNodes nodes;

	@BeforeEach
	void setUp() {
		this.nodes = new QueueNodes(this.jobs);
	}

	@Test
	void claimWritesTheClaimingNodeAndKeepsItAsTheLastClaimant() {
		JobId id = this.jobs.enqueues().enqueue(this.queue, "a", EnqueueSpec.defaults().withMaxAttempts(5));
		ClaimedJob first = claimOne(A);
		assertThat(first.id()).isEqualTo(id);
		assertThat(first.fields()).as("not an extra field of the handler's").doesNotContainKey("claimed_by");
		assertThat(row(id)).containsEntry("state", "active").containsEntry("claimed_by", A.name());
		assertThat(this.jobs.outcomes().retry(this.queue, id, first.token(), "boom", Duration.ZERO).isApplied())
			.isTrue();
		assertThat(row(id)).as("the last claimant stays").containsEntry("claimed_by", A.name());
		assertThat(new QueueInspector(this.jobs).job(this.queue, id).claimedBy()).isEqualTo(A.name());
		ClaimedJob second = claimOne(B);
		assertThat(row(id)).containsEntry("state", "active").containsEntry("claimed_by", B.name());
		assertThat(new QueueInspector(this.jobs).jobs(this.queue, JobState.ACTIVE, 0, 10)).singleElement()
			.extracting(JobView::claimedBy)
			.isEqualTo(B.name());
		assertThat(this.jobs.outcomes().release(this.queue, id, second.token()).isApplied()).isTrue();
		assertThat(this.jobs.claims().claim(this.queue, LEASE, 1, FlowLimits.none()).jobs()).hasSize(1);
		assertThat(row(id)).as("a claim naming no node leaves no earlier name")
			.containsEntry("state", "active")
			.doesNotContainKey("claimed_by");
		assertThat(new QueueAuditor(this.jobs).audit(this.queue, Duration.ofSeconds(5)).isClean()).isTrue();
	}

	@Test
	void laneClaimWritesTheClaimingNode() {
		JobId laned = this.jobs.enqueues().enqueue(this.queue, "a", EnqueueSpec.defaults().withLane("tenant-1"));
		JobId plain = this.jobs.enqueues().enqueue(this.queue, "b", EnqueueSpec.defaults());
		List<ClaimedJob> claimed = this.jobs.claims().claim(this.queue, LEASE, 2, FlowLimits.none(), B).jobs();
		assertThat(claimed).extracting(ClaimedJob::id).containsExactlyInAnyOrder(laned, plain);
		assertThat(row(laned)).containsEntry("state", "active").containsEntry("claimed_by", B.name());
		assertThat(row(plain)).containsEntry("state", "active").containsEntry("claimed_by", B.name());
		assertThat(new QueueAuditor(this.jobs).audit(this.queue, Duration.ofSeconds(5)).isClean()).isTrue();
	}

	@Test
	void claimedByIsReserved() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> EnqueueSpec.defaults().withFields(Map.of("claimed_by", "me")))
			.withMessageContaining("claimed_by");
	}

	@Test
	void registryKeepsOneEntryPerNodeUntilItLeaves() {
		this.nodes.beat(this.queue, listener(A, "orders", 4, false, 1, 10));
		this.nodes.beat(this.queue, listener(B, "orders-b", 3, true, 0, 2));
		this.nodes.beat(this.queue, listener(A, "orders", 4, false, 2, 11));
		List<NodeListener> live = this.nodes.live(this.queue);
		assertThat(live).extracting(NodeListener::node).containsExactly(A.name(), B.name());
		NodeListener a = live.get(0);
		assertThat(a.id()).isEqualTo("orders");
		assertThat(a.concurrency()).isEqualTo(4);
		assertThat(a.inFlight()).isEqualTo(2);
		assertThat(a.completed()).isEqualTo(11);
		assertThat(a.paused()).isFalse();
		assertThat(a.every()).isEqualTo(Duration.ofSeconds(7));
		assertThat(a.seen()).isAfter(Instant.now().minusSeconds(60)).isBefore(Instant.now().plusSeconds(60));
		assertThat(live.get(1).paused()).isTrue();
		assertThat(live.get(1).concurrency()).isEqualTo(3);
		assertThat(this.redis.getExpire(key(), TimeUnit.MILLISECONDS))
			.as("the registry expires three intervals after the last beat")
			.isBetween(1L, 21_000L);
		assertThat(this.nodes.leave(this.queue, A)).isTrue();
		assertThat(this.nodes.leave(this.queue, A)).isFalse();
		assertThat(this.nodes.live(this.queue)).extracting(NodeListener::node).containsExactly(B.name());
		assertThat(new QueueAuditor(this.jobs).audit(this.queue, Duration.ofSeconds(5)).isClean()).isTrue();
	}

	@Test
	void deadEntriesAreHiddenAndPrunedByTheNextBeat() {
		long old = Instant.now().minusSeconds(3600).toEpochMilli();
		this.redis.opsForHash().put(key(), "crashed 9@gone", old + " 7000 2 running 1 5 0 0 0 orders");
		this.redis.opsForHash().put(key(), "garbled", "not an entry");
		assertThat(this.nodes.live(this.queue)).isEmpty();
		assertThat(this.nodes.beat(this.queue, listener(A, "orders listener", 1, false, 0, 0))).isEqualTo(2);
		assertThat(this.redis.<String, String>opsForHash().keys(key())).containsExactly(A.name());
		assertThat(this.nodes.live(this.queue)).singleElement()
			.extracting(NodeListener::id)
			.as("an id with spaces reads back whole")
			.isEqualTo("orders listener");
	}

	@Test
	void registryOfTheWrongTypeIsRefusedBeforeAnyWrite() {
		this.redis.opsForValue().set(key(), "x");
		assertThatExceptionOfType(WrongKeyTypeException.class)
			.isThrownBy(() -> this.nodes.beat(this.queue, listener(A, "orders", 1, false, 0, 0)))
			.withMessageContaining("nodes is a string, not a hash");
		assertThat(this.redis.opsForValue().get(key())).isEqualTo("x");
		assertThat(new QueueAuditor(this.jobs).audit(this.queue, Duration.ofSeconds(5)).violations())
			.anyMatch((violation) -> violation.contains("nodes is a string, not a hash"));
	}

	@Test
	void badNodeNamesAreRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> new EchoMqNode(""));
		assertThatIllegalArgumentException().isThrownBy(() -> new EchoMqNode("a\nb"));
		assertThatIllegalArgumentException().isThrownBy(() -> new EchoMqNode("x".repeat(EchoMqNode.MAX_LENGTH + 1)));
		assertThat(EchoMqNode.local("shop").name()).startsWith("shop ").contains("@");
		assertThat(EchoMqNode.local(null).name()).startsWith("application ");
	}

	private ClaimedJob claimOne(EchoMqNode owner) {
		List<ClaimedJob> claimed = this.jobs.claims().claim(this.queue, LEASE, 1, FlowLimits.none(), owner).jobs();
		assertThat(claimed).hasSize(1);
		return claimed.get(0);
	}

	private Map<Object, Object> row(JobId id) {
		return this.redis.opsForHash().entries(this.jobs.keyspace().jobKey(this.queue, id));
	}

	private String key() {
		return this.jobs.keyspace().queueKey(this.queue, KeyType.NODES.suffix());
	}

	private static NodeListener listener(EchoMqNode node, String id, int concurrency, boolean paused, int inFlight,
			long completed) {
		return new NodeListener(node.name(), id, concurrency, paused, inFlight, completed, 0, 0, 0,
				Duration.ofSeconds(7), Instant.EPOCH);
	}

}
