package io.echomq.core;

import org.springframework.util.Assert;

/**
 * A job by its queue and id: where a job of a flow or batch, whose jobs span queues, was
 * written.
 *
 * @param queue the queue (the logical name of a partitioned queue)
 * @param id the job id
 * @author EchoMQ
 * @since 0.1.0
 */
public record JobRef(String queue, JobId id) {

	public JobRef {
		Assert.hasText(queue, "'queue' must not be empty");
		Assert.notNull(id, "'id' must not be null");
	}

	@Override
	public String toString() {
		return this.queue + "/" + this.id;
	}

}
