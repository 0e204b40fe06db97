package io.echomq.flow;

import io.echomq.EchoMqOperations;
import io.echomq.core.JobId;
import org.jspecify.annotations.Nullable;

/**
 * Where a batch stands ({@link EchoMqOperations#batchStatus(String, JobId)}).
 *
 * @param queue the batch's home queue
 * @param id the batch id
 * @param state {@code open} (takes more jobs), {@code sealed} or {@code finished} (its
 * callbacks fired)
 * @param total the jobs added
 * @param pending the jobs not finished yet (waiting, pending, scheduled, running or
 * retrying)
 * @param completed the jobs completed
 * @param dead the jobs dead
 * @param onSuccess the success callback, if any
 * @param onComplete the complete callback, if any
 * @param onDeath the death callback, if any
 * @author EchoMQ
 * @since 0.1.0
 */
public record BatchStatus(String queue, JobId id, String state, long total, long pending, long completed, long dead,
		@Nullable Callback onSuccess, @Nullable Callback onComplete, @Nullable Callback onDeath) {

	/**
	 * A callback of a batch.
	 *
	 * @param queue its queue
	 * @param id its id
	 * @param fired {@code null} while the batch has not called for it, {@code completed}
	 * once it was moved to pending, {@code skipped} when it will never run (retired: a
	 * success callback after a death, a death callback when none died)
	 */
	public record Callback(String queue, JobId id, @Nullable String fired) {

	}

}
