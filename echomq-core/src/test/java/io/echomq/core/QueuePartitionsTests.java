package io.echomq.core;

import io.echomq.core.internal.KeyType;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Partition names, slots, key routing and the partition a job id carries.
 *
 * @author EchoMQ
 */
class QueuePartitionsTests {

	@Test
	void slotMatchesTheClusterSpecExamples() {
		// CLUSTER KEYSLOT values from the Redis cluster specification and redis-cli
		assertThat(QueuePartitions.slot("123456789")).isEqualTo(12739);
		assertThat(QueuePartitions.slot("{user1000}.following")).isEqualTo(QueuePartitions.slot("user1000"));
		assertThat(QueuePartitions.slot("foo{}{bar}")).isEqualTo(QueuePartitions.slot("foo{}{bar}"));
		assertThat(QueuePartitions.slot("foo{{bar}}zap")).isEqualTo(QueuePartitions.slot("{bar"));
	}

	@Test
	void eachPartitionLandsInTheMiddleOfItsSlotStripe() {
		for (int count : new int[] { 2, 3, 6, 16, 256 }) {
			QueuePartitions partitions = QueuePartitions.of("orders", count);
			assertThat(partitions.names()).hasSize(count).doesNotHaveDuplicates();
			for (int i = 0; i < count; i++) {
				int slot = QueuePartitions.slot("{" + partitions.name(i) + "}");
				int from = (int) ((long) i * QueuePartitions.SLOTS / count);
				int to = (int) ((long) (i + 1) * QueuePartitions.SLOTS / count);
				assertThat(slot).as("%s of %d", partitions.name(i), count)
					.isBetween(from + (to - from) / 4, to - (to - from) / 4 - 1);
			}
		}
		assertThat(QueuePartitions.of("orders", 1).names()).containsExactly("orders");
	}

	@Test
	void keyRoutesToOnePartition() {
		QueuePartitions partitions = QueuePartitions.of("orders", 6);
		int partition = partitions.partitionForKey("customer-7");
		for (int i = 0; i < 10; i++) {
			assertThat(partitions.partitionForKey("customer-7")).isEqualTo(partition);
		}
		assertThatIllegalArgumentException().isThrownBy(() -> partitions.partitionForKey(""));
		assertThatIllegalArgumentException().isThrownBy(() -> partitions.partitionForKey("é".repeat(513)))
			.withMessageContaining("1026 bytes");
	}

	@Test
	void jobIdCarriesItsPartitionAndStaysOrderedWithinIt() {
		List<JobId> ids = new ArrayList<>();
		for (int i = 0; i < 1000; i++) {
			ids.add(JobId.mint(200));
		}
		assertThat(ids).allSatisfy((id) -> assertThat(id.partition()).isEqualTo(200));
		assertThat(ids).isSorted();
		assertThat(ids.stream().map(JobId::toString).sorted().toList())
			.isEqualTo(ids.stream().map(JobId::toString).toList());
		assertThat(JobId.parse(ids.get(0).toString()).partition()).isEqualTo(200);
		assertThatIllegalArgumentException().isThrownBy(() -> JobId.mint(256));
		assertThatIllegalArgumentException().isThrownBy(() -> JobId.mint(-1));
	}

	@Test
	void idOfAMissingPartitionIsRefused() {
		QueuePartitions partitions = QueuePartitions.of("orders", 3);
		assertThat(partitions.nameOf(JobId.mint(2))).isEqualTo(partitions.name(2));
		assertThatExceptionOfType(InvalidPartitionException.class).isThrownBy(() -> partitions.nameOf(JobId.mint(3)))
			.withMessageContaining("names partition 3")
			.withMessageContaining("queue 'orders' has 3 partition(s)");
		assertThat(QueuePartitions.of("orders", 1).nameOf(JobId.mint(9))).isEqualTo("orders");
	}

	@Test
	void keyspaceAcceptsOnlyGeneratedPartitionNames() {
		Keyspace keyspace = Keyspace.defaults();
		QueuePartitions partitions = QueuePartitions.of("orders", 6);
		for (String name : partitions.names()) {
			assertThat(keyspace.queueKey(name, KeyType.PENDING.suffix())).isEqualTo("emq:{" + name + "}:pending");
			assertThat(QueuePartitions.logicalName(name)).isEqualTo("orders");
			assertThat(partitions.name(QueuePartitions.indexOf(name))).isEqualTo(name);
		}
		for (String bad : List.of("orders#", "orders#x", "orders#256", "orders#01", "orders#1.", "orders#1#2", "#1",
				"or{ders#1")) {
			assertThatExceptionOfType(InvalidQueueNameException.class).as(bad)
				.isThrownBy(() -> keyspace.queueKey(bad, KeyType.PENDING.suffix()));
		}
		assertThatExceptionOfType(InvalidQueueNameException.class)
			.isThrownBy(() -> Keyspace.validateQueueName(partitions.name(1)))
			.withMessageContaining("'#' is reserved");
		assertThatIllegalArgumentException().isThrownBy(() -> QueuePartitions.of("orders", 0));
		assertThatIllegalArgumentException().isThrownBy(() -> QueuePartitions.of("orders", 257));
	}

}
