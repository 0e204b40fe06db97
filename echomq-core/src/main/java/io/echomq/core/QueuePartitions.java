package io.echomq.core;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The partitions of one logical queue: {@code N} full queues, each with the unchanged
 * keyspace and scripts under a hash tag of its own, so that one queue can spread over the
 * masters of a cluster while every transition is still one script on one slot.
 * <p>
 * With one partition (the default) the only partition is the queue itself: its keys are
 * exactly {@code <prefix>:{<queue>}:*}. With {@code N > 1}, partition {@code i} is named
 * {@code <queue>#<i>}, or {@code <queue>#<i>.<k>} with the smallest {@code k} that puts
 * its slot into the middle half of the {@code i}-th of {@code N} equal slot ranges. A
 * cluster whose slots are split evenly over {@code M} masters (what
 * {@code redis-cli --cluster create} does) thus gets {@code N/M} partitions on each
 * master when {@code M} divides {@code N}, whatever the queue name. The {@code #} is
 * reserved for these generated names: {@link Keyspace#validateQueueName(String)} refuses
 * it in a name a user gives.
 * <p>
 * A job minted for partition {@code i} carries {@code i} in its id
 * ({@link JobId#partition()}), so a lookup, replay or cancel by id goes straight to its
 * partition ({@link #nameOf(JobId)}).
 *
 * @author EchoMQ
 * @since 0.2.0
 */
public final class QueuePartitions {

	/** Most partitions a queue may have: a job id carries its partition in 8 bits. */
	public static final int MAX_PARTITIONS = 256;

	/** Longest partition key, in UTF-8 bytes. */
	public static final int MAX_PARTITION_KEY_BYTES = 1024;

	/** Separates a queue name from a partition index in a generated name. */
	public static final char SEPARATOR = '#';

	/** Number of hash slots of Redis Cluster and Valkey Cluster. */
	public static final int SLOTS = 16384;

	private static final Pattern GENERATED = Pattern.compile("(0|[1-9][0-9]{0,2})(\\.(0|[1-9][0-9]{0,5}))?");

	private final String queue;

	private final List<String> names;

	private QueuePartitions(String queue, List<String> names) {
		this.queue = queue;
		this.names = names;
	}

	/**
	 * Return the partitions of a queue.
	 * @param queue the logical queue name
	 * @param count how many partitions, 1 to {@value #MAX_PARTITIONS}
	 * @return the partitions
	 * @throws InvalidQueueNameException if the name is not valid
	 * @throws IllegalArgumentException if the count is out of range
	 */
	public static QueuePartitions of(String queue, int count) {
		Keyspace.validateQueueName(queue);
		checkCount(queue, count);
		if (count == 1) {
			return new QueuePartitions(queue, List.of(queue));
		}
		List<String> names = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			names.add(generate(queue, i, count));
		}
		return new QueuePartitions(queue, List.copyOf(names));
	}

	/**
	 * Check a partition count.
	 * @param queue the queue, for the message
	 * @param count the count
	 * @return the count
	 * @throws IllegalArgumentException if it is below 1 or above {@value #MAX_PARTITIONS}
	 */
	public static int checkCount(String queue, int count) {
		if (count < 1 || count > MAX_PARTITIONS) {
			throw new IllegalArgumentException("Invalid partition count " + count + " for EchoMQ queue '" + queue
					+ "': must be between 1 and " + MAX_PARTITIONS);
		}
		return count;
	}

	/**
	 * Return the logical queue name.
	 * @return the name
	 */
	public String queue() {
		return this.queue;
	}

	/**
	 * Return how many partitions the queue has.
	 * @return the count
	 */
	public int count() {
		return this.names.size();
	}

	/**
	 * Return whether the queue has more than one partition.
	 * @return whether it is partitioned
	 */
	public boolean isPartitioned() {
		return this.names.size() > 1;
	}

	/**
	 * Return the names of the partitions, each a queue of the engine
	 * ({@link io.echomq.core.internal.Engine}).
	 * @return the names, by partition index
	 */
	public List<String> names() {
		return this.names;
	}

	/**
	 * Return the name of one partition.
	 * @param index the partition index
	 * @return the name
	 * @throws InvalidPartitionException if the index is not a partition of this queue
	 */
	public String name(int index) {
		if (index < 0 || index >= this.names.size()) {
			throw new InvalidPartitionException("Queue '" + this.queue + "' has " + this.names.size()
					+ " partition(s) (0-" + (this.names.size() - 1) + "); there is no partition " + index);
		}
		return this.names.get(index);
	}

	/**
	 * Return the partition a job lives in.
	 * @param id the job id
	 * @return the partition index; 0 for an unpartitioned queue
	 * @throws InvalidPartitionException if the id names a partition this queue does not
	 * have
	 */
	public int partitionOf(JobId id) {
		if (!isPartitioned()) {
			return 0;
		}
		int partition = id.partition();
		if (partition >= this.names.size()) {
			throw new InvalidPartitionException("Job " + id + " names partition " + partition + ", but queue '"
					+ this.queue + "' has " + this.names.size() + " partition(s) (0-" + (this.names.size() - 1)
					+ "): it was not enqueued to this queue");
		}
		return partition;
	}

	/**
	 * Return the name of the partition a job lives in, the queue to pass to
	 * {@link io.echomq.core.internal.Engine}.
	 * @param id the job id
	 * @return the partition name
	 * @throws InvalidPartitionException if the id names a partition this queue does not
	 * have
	 */
	public String nameOf(JobId id) {
		return this.names.get(partitionOf(id));
	}

	/**
	 * Return the partition of a partition key: the CRC16 of its UTF-8 bytes modulo the
	 * partition count, so that one key always lands in one partition.
	 * @param key the partition key
	 * @return the partition index
	 * @throws IllegalArgumentException if the key is empty or too long
	 */
	public int partitionForKey(String key) {
		byte[] bytes = checkKey(key);
		return crc16(bytes, 0, bytes.length) % this.names.size();
	}

	/**
	 * Check a partition key.
	 * @param key the key
	 * @return its UTF-8 bytes
	 * @throws IllegalArgumentException if it is {@code null}, empty or longer than
	 * {@value #MAX_PARTITION_KEY_BYTES} bytes
	 */
	public static byte[] checkKey(String key) {
		if (key == null || key.isEmpty()) {
			throw new IllegalArgumentException("Partition key must not be null or empty");
		}
		byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
		if (bytes.length > MAX_PARTITION_KEY_BYTES) {
			throw new IllegalArgumentException("Partition key is " + bytes.length + " bytes, more than the "
					+ MAX_PARTITION_KEY_BYTES + " allowed: '" + key.substring(0, 40) + "...'");
		}
		return bytes;
	}

	/**
	 * Return the logical queue of an engine queue name: the name itself, or the part
	 * before {@code #} of a generated partition name.
	 * @param name the engine queue name
	 * @return the logical queue name
	 */
	public static String logicalName(String name) {
		int at = name.indexOf(SEPARATOR);
		return (at < 0) ? name : name.substring(0, at);
	}

	/**
	 * Return the partition index of an engine queue name.
	 * @param name the engine queue name
	 * @return the index, 0 for a name that is not a generated partition name
	 */
	public static int indexOf(String name) {
		int at = name.indexOf(SEPARATOR);
		if (at < 0) {
			return 0;
		}
		int dot = name.indexOf('.', at);
		return Integer.parseInt(name.substring(at + 1, (dot < 0) ? name.length() : dot));
	}

	/**
	 * Validate an engine queue name: a queue name, or a generated partition name.
	 * @param name the name
	 * @return the name
	 * @throws InvalidQueueNameException if it is neither
	 */
	public static String validateEngineName(String name) {
		int at = (name != null) ? name.indexOf(SEPARATOR) : -1;
		if (at < 0) {
			return Keyspace.validateQueueName(name);
		}
		Keyspace.validateQueueName(name.substring(0, at));
		Matcher suffix = GENERATED.matcher(name.substring(at + 1));
		if (!suffix.matches() || Integer.parseInt(suffix.group(1)) >= MAX_PARTITIONS) {
			throw new InvalidQueueNameException("Invalid EchoMQ queue name '" + name
					+ "': '#' is reserved for the partition names EchoMQ generates (<queue>#<0-" + (MAX_PARTITIONS - 1)
					+ ">[.<n>])");
		}
		return name;
	}

	/**
	 * Return the cluster hash slot of a key, honouring a {@code {...}} hash tag.
	 * @param key the key
	 * @return the slot, 0 to 16383
	 */
	public static int slot(String key) {
		byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
		int open = -1;
		for (int i = 0; i < bytes.length; i++) {
			if (bytes[i] == '{') {
				open = i;
				break;
			}
		}
		if (open >= 0) {
			for (int i = open + 1; i < bytes.length; i++) {
				if (bytes[i] == '}') {
					if (i > open + 1) {
						return crc16(bytes, open + 1, i) % SLOTS;
					}
					break;
				}
			}
		}
		return crc16(bytes, 0, bytes.length) % SLOTS;
	}

	private static String generate(String queue, int index, int count) {
		int from = (int) ((long) index * SLOTS / count);
		int to = (int) ((long) (index + 1) * SLOTS / count);
		int width = to - from;
		int low = from + width / 4;
		int high = to - width / 4;
		String base = queue + SEPARATOR + index;
		for (int k = 0;; k++) {
			String name = (k == 0) ? base : base + "." + k;
			int slot = slot("{" + name + "}");
			if (slot >= low && slot < high) {
				return name;
			}
		}
	}

	private static int crc16(byte[] bytes, int from, int to) {
		int crc = 0;
		for (int i = from; i < to; i++) {
			crc ^= (bytes[i] & 0xFF) << 8;
			for (int bit = 0; bit < 8; bit++) {
				crc = ((crc & 0x8000) != 0) ? ((crc << 1) ^ 0x1021) : (crc << 1);
				crc &= 0xFFFF;
			}
		}
		return crc;
	}

	@Override
	public String toString() {
		return "QueuePartitions[" + this.queue + " x" + this.names.size() + "]";
	}

}
