package io.echomq.core.internal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import io.echomq.core.JobId;
import io.echomq.core.JobState;
import io.echomq.core.Keyspace;

/**
 * A queue's key set as one value: every key of the queue's hash slot a script call
 * declares, built once per queue, so that no caller builds a key list by hand.
 *
 * @param keyspace the keyspace the keys are built in
 * @param queue the queue (or partition) name
 * @param pending the pending set ({@link KeyType#PENDING})
 * @param active the active set ({@link KeyType#ACTIVE})
 * @param schedule the schedule set ({@link KeyType#SCHEDULE})
 * @param dead the dead set ({@link KeyType#DEAD})
 * @param completed the completed set ({@link KeyType#COMPLETED})
 * @param quarantine the quarantine set ({@link KeyType#QUARANTINE})
 * @param metrics the counters ({@link KeyType#METRICS})
 * @param minutes the per-minute series ({@link KeyType#MINUTES})
 * @param wake the wake list ({@link KeyType#WAKE})
 * @param paused the cluster-wide pause flag ({@link KeyType#PAUSED})
 * @param lanes the ring of lanes with ready work ({@link KeyType#LANES})
 * @param starts the rate limiter's log ({@link KeyType#STARTS})
 * @param throttled the throttled marker ({@link KeyType#THROTTLED})
 * @param meta the stored format ({@link KeyType#META})
 * @param waiters the awaited ids ({@link KeyType#WAITERS})
 * @param done the channel awaited outcomes are published on ({@link KeyType#DONE})
 * @param events the job event stream ({@link KeyType#EVENTS})
 * @param rowPrefix the prefix of every row key
 * @param uniquePrefix the prefix of every unique key
 * @author EchoMQ
 */
public record QueueKeys(Keyspace keyspace, String queue, String pending, String active, String schedule, String dead,
		String completed, String quarantine, String metrics, String minutes, String wake, String paused, String lanes,
		String starts, String throttled, String meta, String waiters, String done, String events, String rowPrefix,
		String uniquePrefix) {

	/**
	 * Build a queue's keys.
	 * @param keyspace the keyspace
	 * @param queue the queue (or partition) name
	 * @return the keys
	 * @throws io.echomq.core.InvalidQueueNameException if the queue name is not valid
	 */
	public static QueueKeys of(Keyspace keyspace, String queue) {
		return new QueueKeys(keyspace, queue, keyspace.queueKey(queue, KeyType.PENDING.suffix()),
				keyspace.queueKey(queue, KeyType.ACTIVE.suffix()), keyspace.queueKey(queue, KeyType.SCHEDULE.suffix()),
				keyspace.queueKey(queue, KeyType.DEAD.suffix()), keyspace.queueKey(queue, KeyType.COMPLETED.suffix()),
				keyspace.queueKey(queue, KeyType.QUARANTINE.suffix()),
				keyspace.queueKey(queue, KeyType.METRICS.suffix()), keyspace.queueKey(queue, KeyType.MINUTES.suffix()),
				keyspace.queueKey(queue, KeyType.WAKE.suffix()), keyspace.queueKey(queue, KeyType.PAUSED.suffix()),
				keyspace.queueKey(queue, KeyType.LANES.suffix()), keyspace.queueKey(queue, KeyType.STARTS.suffix()),
				keyspace.queueKey(queue, KeyType.THROTTLED.suffix()), keyspace.queueKey(queue, KeyType.META.suffix()),
				keyspace.queueKey(queue, KeyType.WAITERS.suffix()), keyspace.queueKey(queue, KeyType.DONE.suffix()),
				keyspace.queueKey(queue, KeyType.EVENTS.suffix()), keyspace.jobKeyPrefix(queue),
				keyspace.uniqueKeyPrefix(queue));
	}

	/**
	 * Return the key of a location.
	 * @param location where jobs rest: pending, active, schedule, dead, completed or
	 * quarantine
	 * @return its sorted set
	 */
	public String location(JobState location) {
		return switch (location) {
			case PENDING -> this.pending;
			case ACTIVE -> this.active;
			case SCHEDULE -> this.schedule;
			case DEAD -> this.dead;
			case COMPLETED -> this.completed;
			case QUARANTINE -> this.quarantine;
			case WAITING -> waiting();
		};
	}

	/**
	 * Return the location of the parents of flows that wait for their children.
	 * @return the sorted set
	 */
	public String waiting() {
		return this.keyspace.queueKey(this.queue, KeyType.WAITING.suffix());
	}

	/**
	 * Return the hash of the operator's controls of the queue's lanes.
	 * @return the hash ({@link KeyType#LANE_CONTROLS})
	 */
	public String laneControls() {
		return this.keyspace.queueKey(this.queue, KeyType.LANE_CONTROLS.suffix());
	}

	/**
	 * Return the limits an operator stored at run time ({@link KeyType#LIMITS}).
	 * @return the hash
	 */
	public String limits() {
		return this.keyspace.queueKey(this.queue, KeyType.LIMITS.suffix());
	}

	/**
	 * Return the outbox: records of finished children whose parent is on another slot.
	 * @return the sorted set
	 */
	public String outbox() {
		return this.keyspace.queueKey(this.queue, KeyType.OUTBOX.suffix());
	}

	/**
	 * Return the location of the open and sealed batches of this queue.
	 * @return the sorted set
	 */
	public String batches() {
		return this.keyspace.queueKey(this.queue, KeyType.BATCHES.suffix());
	}

	/**
	 * Return a batch's row key.
	 * @param id the batch id
	 * @return the hash
	 */
	public String batch(String id) {
		return this.keyspace.queueKey(this.queue, KeyType.BATCH.suffix()) + ":" + id;
	}

	/**
	 * Return a job's row key.
	 * @param id the job id
	 * @return the row key
	 */
	public String row(JobId id) {
		return this.rowPrefix + id;
	}

	/**
	 * Return a job's row key from the string form of its id, unchecked.
	 * @param id the job id text
	 * @return the row key
	 */
	public String row(String id) {
		return this.rowPrefix + id;
	}

	/**
	 * Return the key of a job's result ({@link Keyspace#resultKey(String, JobId)}).
	 * @param id the job id
	 * @return the key
	 */
	public String result(JobId id) {
		return this.keyspace.resultKey(this.queue, id);
	}

	/**
	 * Return the key of a unique key name, unchecked.
	 * @param name the unique key name
	 * @return the key
	 */
	public String unique(String name) {
		return this.uniquePrefix + name;
	}

	/**
	 * Return a key of one of the queue's lanes.
	 * @param lane the lane key
	 * @param type what the key holds
	 * @return the key
	 * @throws io.echomq.core.InvalidQueueNameException if the lane key is not valid
	 */
	public String lane(String lane, LaneKeyType type) {
		return this.keyspace.laneKey(this.queue, lane, type.suffix());
	}

	/**
	 * Return the keys {@code enqueue.lua} starts with: pending, schedule, metrics, wake.
	 * @param extra room for the keys the caller adds
	 * @return a new list
	 */
	public List<String> forEnqueue(int extra) {
		return list(extra, this.pending, this.schedule, this.metrics, this.wake);
	}

	/**
	 * Return the keys {@code complete.lua} starts with: active, the row, metrics,
	 * minutes, wake, throttled.
	 * @param id the job id
	 * @param extra room for the keys the caller adds
	 * @return a new list
	 */
	public List<String> forComplete(JobId id, int extra) {
		return list(extra, this.active, row(id), this.metrics, this.minutes, this.wake, this.throttled);
	}

	/**
	 * Return the keys {@code complete_all.lua} starts with: active, metrics, minutes,
	 * wake, throttled.
	 * @param extra room for the rows
	 * @return a new list
	 */
	public List<String> forCompleteAll(int extra) {
		return list(extra, this.active, this.metrics, this.minutes, this.wake, this.throttled);
	}

	/**
	 * Return the keys {@code retry.lua} starts with: active, schedule, dead, pending, the
	 * row, metrics, wake, minutes, throttled.
	 * @param id the job id
	 * @param extra room for the keys the caller adds
	 * @return a new list
	 */
	public List<String> forRetry(JobId id, int extra) {
		return list(extra, this.active, this.schedule, this.dead, this.pending, row(id), this.metrics, this.wake,
				this.minutes, this.throttled);
	}

	/**
	 * Return the keys of {@code extend.lua}: active, the row.
	 * @param id the job id
	 * @return a new list
	 */
	public List<String> forExtend(JobId id) {
		return list(0, this.active, row(id));
	}

	/**
	 * Return the keys of {@code release.lua}: active, pending, the row, wake, metrics,
	 * schedule, waiters, done.
	 * @param id the job id
	 * @return a new list
	 */
	public List<String> forRelease(JobId id) {
		return list(0, this.active, this.pending, row(id), this.wake, this.metrics, this.schedule, this.waiters,
				this.done);
	}

	/**
	 * Return the keys {@code reap.lua} starts with: active, pending, dead, metrics, wake,
	 * lanes.
	 * @return a new list
	 */
	public List<String> forReap() {
		return list(0, this.active, this.pending, this.dead, this.metrics, this.wake, this.lanes);
	}

	/**
	 * Return the keys {@code promote.lua} starts with: schedule, pending, metrics, wake,
	 * lanes.
	 * @return a new list
	 */
	public List<String> forPromote() {
		return list(0, this.schedule, this.pending, this.metrics, this.wake, this.lanes);
	}

	/**
	 * Return the keys {@code quarantine.lua} starts with: pending, active, schedule,
	 * dead, quarantine, metrics.
	 * @return a new list
	 */
	public List<String> forQuarantine() {
		return list(0, this.pending, this.active, this.schedule, this.dead, this.quarantine, this.metrics);
	}

	/**
	 * Return the keys of {@code replay.lua}: dead, pending, the row, metrics, wake,
	 * schedule, outbox.
	 * @param id the job id
	 * @return a new list
	 */
	public List<String> forReplay(JobId id) {
		return list(0, this.dead, this.pending, row(id), this.metrics, this.wake, this.schedule, outbox());
	}

	/**
	 * Return the keys {@code delete.lua} starts with: pending, schedule, dead, completed,
	 * active, the row, metrics, waiters, done, waiting, outbox.
	 * @param id the job id
	 * @return a new list
	 */
	public List<String> forDelete(JobId id) {
		return list(0, this.pending, this.schedule, this.dead, this.completed, this.active, row(id), this.metrics,
				this.waiters, this.done, waiting(), outbox());
	}

	/**
	 * Return the keys of {@code run_now.lua}: schedule, pending, the row, metrics, wake.
	 * @param id the job id
	 * @return a new list
	 */
	public List<String> forRunNow(JobId id) {
		return list(0, this.schedule, this.pending, row(id), this.metrics, this.wake);
	}

	/**
	 * Return the keys {@code cancel.lua} starts with: pending, active, schedule, dead,
	 * quarantine, the row, metrics, waiters, done, waiting, outbox.
	 * @param id the job id
	 * @return a new list
	 */
	public List<String> forCancel(JobId id) {
		return list(0, this.pending, this.active, this.schedule, this.dead, this.quarantine, row(id), this.metrics,
				this.waiters, this.done, waiting(), outbox());
	}

	/**
	 * Add the keys a script that ends a job declares to tell its waiters
	 * ({@code includes/notify.lua}): waiters, done.
	 * @param keys the call's keys, the two added last
	 * @return the keys
	 */
	public List<String> addNotify(List<String> keys) {
		keys.add(this.waiters);
		keys.add(this.done);
		return keys;
	}

	/**
	 * Return the keys of {@code pause.lua}: paused, wake.
	 * @return a new list
	 */
	public List<String> forPause() {
		return list(0, this.paused, this.wake);
	}

	private static List<String> list(int extra, String... keys) {
		List<String> list = new ArrayList<>(keys.length + extra);
		Collections.addAll(list, keys);
		return list;
	}

}
