package io.echomq.flow;

import java.util.List;

import io.echomq.EchoMqOperations;
import io.echomq.core.JobId;

/**
 * A job of a flow that {@link EchoMqOperations#flow(FlowSpec)} enqueued, with its
 * children, in the order of the {@link FlowSpec}.
 *
 * @param queue the job's queue
 * @param id the job's id
 * @param children its children, empty for a job without any
 * @author EchoMQ
 * @since 0.1.0
 */
public record FlowJob(String queue, JobId id, List<FlowJob> children) {

	/**
	 * Create a job of a flow.
	 * @param queue the queue
	 * @param id the id
	 * @param children the children
	 */
	public FlowJob {
		children = List.copyOf(children);
	}

}
