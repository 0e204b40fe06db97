package io.echomq.dashboard;

import java.util.List;

import io.echomq.core.JobId;
import io.echomq.core.Jobs;
import io.echomq.core.KeyType;
import io.echomq.core.Keyspace;
import io.echomq.core.Script;

/**
 * Deletes one dead job with the engine's {@code purge} script, given a single
 * candidate: the script removes the id from {@code dead} and deletes its row only if it
 * is still dead, atomically. {@code Jobs} purges every dead job but has no verb for one;
 * once it has, this class goes.
 *
 * @author EchoMQ
 */
final class DeadJobPurge {

	private static final Script PURGE = Script.load("purge");

	private final Jobs jobs;

	DeadJobPurge(Jobs jobs) {
		this.jobs = jobs;
	}

	/**
	 * Delete a dead job and its row.
	 * @param queue the queue
	 * @param id the job id
	 * @return whether it was dead and is now gone
	 */
	boolean purge(String queue, JobId id) {
		Keyspace keyspace = this.jobs.keyspace();
		List<Object> reply = this.jobs.executor()
			.execute(PURGE, List.of(keyspace.queueKey(queue, KeyType.DEAD), keyspace.queueKey(queue, KeyType.METRICS),
					keyspace.jobKey(queue, id)), List.of(id.toString()));
		return !reply.isEmpty() && reply.get(0) instanceof Long purged && purged == 1L;
	}

}
