package io.echomq.core;

import java.util.regex.Pattern;

/**
 * Builds every key of the EchoMQ keyspace and gates what goes into it.
 * <p>
 * Every key of a queue is {@code <prefix>:{<queue>}:<type>}: the braced queue name is the
 * cluster hash tag, so all keys of one queue hash to one slot and a multi-key transition
 * script is legal on Redis Cluster and Valkey Cluster. Queue names and job ids are
 * validated here, before any key exists.
 *
 * @param prefix the key prefix, {@code emq} by default
 * @author EchoMQ
 * @since 0.1.0
 */
public record Keyspace(String prefix) {

	/** The default key prefix. */
	public static final String DEFAULT_PREFIX = "emq";

	/** Maximum length of a queue name. */
	public static final int MAX_QUEUE_NAME_LENGTH = 64;

	private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]+");

	private static final String JOB = "job:";

	private static final String UNIQUE = "unique:";

	private static final String RESULT = "result:";

	private static final String LANE = "lane:";

	/** Maximum length of a lane key. */
	public static final int MAX_LANE_LENGTH = 64;

	/**
	 * Create a keyspace, validating the prefix.
	 * @param prefix the key prefix
	 */
	public Keyspace {
		if (prefix == null || prefix.isEmpty() || prefix.length() > MAX_QUEUE_NAME_LENGTH
				|| !NAME.matcher(prefix).matches()) {
			throw new IllegalArgumentException("Invalid EchoMQ key prefix '" + prefix + "': must be 1-"
					+ MAX_QUEUE_NAME_LENGTH + " characters of [A-Za-z0-9._-] (no braces or colons)");
		}
	}

	/**
	 * Return the keyspace with the default {@code emq} prefix.
	 * @return the default keyspace
	 */
	public static Keyspace defaults() {
		return new Keyspace(DEFAULT_PREFIX);
	}

	/**
	 * Build the key of a location of a queue: the key a job in that state is in.
	 * @param queue the queue name, or a partition name {@link QueuePartitions} generated
	 * @param state the state
	 * @return the key, e.g. {@code emq:{mail}:pending}
	 * @throws InvalidQueueNameException if the queue name is not valid
	 * @since 0.4.0
	 */
	public String locationKey(String queue, JobState state) {
		return base(queue) + state.value();
	}

	/**
	 * Build a key of a queue from its type, as {@code docs/protocol.md} names them
	 * ({@code pending}, {@code active}, {@code wake}, {@code meta}, ...).
	 * @param queue the queue name, or a partition name {@link QueuePartitions} generated
	 * @param type the key's type
	 * @return the key, e.g. {@code emq:{mail}:wake}
	 * @throws InvalidQueueNameException if the queue name is not valid
	 */
	public String queueKey(String queue, String type) {
		return base(queue) + type;
	}

	/**
	 * Build the row key of a job.
	 * @param queue the queue name
	 * @param id the job id
	 * @return the key, e.g. {@code emq:{mail}:job:JOB0Nt...}
	 */
	public String jobKey(String queue, JobId id) {
		return base(queue) + JOB + id;
	}

	/**
	 * Build the row key of a job from the string form of its id.
	 * @param queue the queue name
	 * @param id the job id text
	 * @return the row key
	 * @throws InvalidJobIdException if the id is not a well-formed JOB id
	 */
	public String jobKey(String queue, String id) {
		return jobKey(queue, JobId.parse(id));
	}

	/**
	 * Return the prefix shared by every row key of a queue, for scans.
	 * @param queue the queue name
	 * @return the prefix, e.g. {@code emq:{mail}:job:}
	 */
	public String jobKeyPrefix(String queue) {
		return base(queue) + JOB;
	}

	/**
	 * Build the key that holds a job's result while its queue retains no completed jobs:
	 * a string with the queue's result TTL, written by the completing script.
	 * @param queue the queue name
	 * @param id the job id
	 * @return the key, e.g. {@code emq:{mail}:result:JOB0Nt...}
	 */
	public String resultKey(String queue, JobId id) {
		return base(queue) + RESULT + id;
	}

	/**
	 * Return the key of the set of queues that have recurring schedules: an index,
	 * outside any queue's slot, that the schedule tick reads to find the queues to tick.
	 * It is never written by a transition script.
	 * @return the key, e.g. {@code emq:schedule-queues}
	 */
	public String scheduleQueuesKey() {
		return this.prefix + ":schedule-queues";
	}

	/**
	 * Build the key of a unique key name: a string holding the id of the job that holds
	 * it.
	 * @param queue the queue name
	 * @param name the unique key name
	 * @return the key, e.g. {@code emq:{mail}:unique:invoice-42}
	 * @throws IllegalArgumentException if the name is not valid (see {@link UniqueKey})
	 */
	public String uniqueKey(String queue, String name) {
		return base(queue) + UNIQUE + UniqueKey.validateName(name);
	}

	/**
	 * Return the prefix shared by every unique key of a queue, for scans.
	 * @param queue the queue name
	 * @return the prefix, e.g. {@code emq:{mail}:unique:}
	 */
	public String uniqueKeyPrefix(String queue) {
		return base(queue) + UNIQUE;
	}

	/**
	 * Build a key of one lane of a queue.
	 * @param queue the queue name
	 * @param lane the lane key
	 * @param type what the key holds ({@code pending}, {@code active}, {@code starts})
	 * @return the key, e.g. {@code emq:{mail}:lane:tenant-a:pending}
	 * @throws InvalidQueueNameException if the queue name or the lane key is not valid
	 */
	public String laneKey(String queue, String lane, String type) {
		return base(queue) + LANE + validateLane(lane) + ":" + type;
	}

	/**
	 * Return the prefix shared by every lane key of a queue, for scans.
	 * @param queue the queue name
	 * @return the prefix, e.g. {@code emq:{mail}:lane:}
	 */
	public String laneKeyPrefix(String queue) {
		return base(queue) + LANE;
	}

	/**
	 * Validate a lane key: the same rules as a queue name, since it becomes part of keys.
	 * @param lane the lane key to check
	 * @return the lane key
	 * @throws InvalidQueueNameException if it is not 1-64 characters of
	 * {@code [A-Za-z0-9._-]} (no braces, colons or spaces)
	 */
	public static String validateLane(String lane) {
		validateLength("lane key", lane, MAX_LANE_LENGTH);
		if (!NAME.matcher(lane).matches()) {
			throw new InvalidQueueNameException("Invalid EchoMQ lane key '" + lane
					+ "': only letters, digits, '.', '_' and '-' are allowed (no braces, colons or spaces)");
		}
		return lane;
	}

	/**
	 * Validate a queue name.
	 * @param queue the name to check
	 * @return the name
	 * @throws InvalidQueueNameException if it is not 1-64 characters of
	 * {@code [A-Za-z0-9._-]}
	 */
	public static String validateQueueName(String queue) {
		validateLength("queue name", queue, MAX_QUEUE_NAME_LENGTH);
		if (!isName(queue)) {
			throw new InvalidQueueNameException("Invalid EchoMQ queue name '" + queue
					+ "': only letters, digits, '.', '_' and '-' are allowed (no braces, colons or spaces; '#' is reserved "
					+ "for the partition names EchoMQ generates)");
		}
		return queue;
	}

	private static void validateLength(String what, String value, int max) {
		if (value == null) {
			throw new InvalidQueueNameException("Invalid EchoMQ " + what + ": must not be null");
		}
		if (value.isEmpty() || value.length() > max) {
			throw new InvalidQueueNameException("Invalid EchoMQ " + what + " '" + abbreviate(value) + "': must be 1-"
					+ max + " characters, was " + value.length());
		}
	}

	/**
	 * The character check of {@link #NAME} without a regex: a queue name is validated on
	 * every key built, several times per job.
	 */
	private static boolean isName(String text) {
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_'
					|| c == '-')) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Build the key that records how many partitions a queue has, on the queue's own slot
	 * (that of its only partition when it has one).
	 * @param queue the logical queue name
	 * @return the key, e.g. {@code emq:{mail}:partitions}
	 */
	public String partitionsKey(String queue) {
		return this.prefix + ":{" + validateQueueName(queue) + "}:partitions";
	}

	/**
	 * Return the key of the applications holding a queue's partition count
	 * ({@link io.echomq.core.internal.PartitionCountCheck}): a sorted set on the same
	 * slot as {@link #partitionsKey(String)}.
	 * @param queue the logical queue name
	 * @return the key, e.g. {@code emq:{mail}:partitions:holders}
	 */
	public String partitionHoldersKey(String queue) {
		return partitionsKey(queue) + ":holders";
	}

	private String base(String queue) {
		return this.prefix + ":{" + QueuePartitions.validateEngineName(queue) + "}:";
	}

	private static String abbreviate(String text) {
		return (text.length() <= 80) ? text : text.substring(0, 80) + "...";
	}

}
