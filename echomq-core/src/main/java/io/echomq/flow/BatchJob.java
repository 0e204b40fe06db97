package io.echomq.flow;

import java.util.List;

import io.echomq.EchoMqOperations;
import io.echomq.core.JobId;
import org.jspecify.annotations.Nullable;

/**
 * A batch that {@link EchoMqOperations#batch(BatchSpec)} enqueued: its id in its home
 * queue, the jobs written, and its callbacks.
 *
 * @param queue the batch's home queue
 * @param id the batch id
 * @param jobs the jobs written, in the order of the spec
 * @param onSuccess the success callback, if any
 * @param onComplete the complete callback, if any
 * @param onDeath the death callback, if any
 * @author EchoMQ
 * @since 0.1.0
 */
public record BatchJob(String queue, JobId id, List<FlowJob> jobs, @Nullable FlowJob onSuccess,
		@Nullable FlowJob onComplete, @Nullable FlowJob onDeath) {

	/**
	 * Create a batch.
	 * @param queue the home queue
	 * @param id the id
	 * @param jobs the jobs
	 * @param onSuccess the success callback
	 * @param onComplete the complete callback
	 * @param onDeath the death callback
	 */
	public BatchJob {
		jobs = List.copyOf(jobs);
	}

}
