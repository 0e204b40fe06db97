package io.echomq.dashboard;

import java.nio.charset.StandardCharsets;
import java.util.List;

import io.echomq.core.JobId;
import io.echomq.core.Jobs;
import io.echomq.core.KeyType;
import io.echomq.core.Keyspace;
import io.echomq.core.Script;
import org.jspecify.annotations.Nullable;

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
	 * @return whether it was dead and is now gone, or why the script left it alone
	 */
	Result purge(String queue, JobId id) {
		Keyspace keyspace = this.jobs.keyspace();
		List<Object> reply = this.jobs.executor()
			.execute(PURGE, List.of(keyspace.queueKey(queue, KeyType.DEAD), keyspace.queueKey(queue, KeyType.METRICS),
					keyspace.jobKey(queue, id)), List.of(id.toString()));
		boolean purged = !reply.isEmpty() && reply.get(0) instanceof Long count && count == 1L;
		String problem = null;
		if (reply.size() > 1 && reply.get(1) instanceof List<?> skipped && skipped.size() > 1) {
			problem = text(skipped.get(1));
		}
		return new Result(purged, problem);
	}

	private static String text(Object value) {
		return (value instanceof byte[] bytes) ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(value);
	}

	/**
	 * What a purge did.
	 *
	 * @param purged whether the job was deleted
	 * @param problem why the script skipped a dead job (its row breaks the schema), or
	 * {@code null}
	 */
	record Result(boolean purged, @Nullable String problem) {

	}

}
