package io.echomq.benchmark;

/**
 * The sizes of one harness run: the full ones, or the tiny ones of {@code --smoke}.
 *
 * @param enqueueJobs jobs of the sequential enqueue figure
 * @param enqueuePipelinedJobs jobs of the pipelined enqueue figure
 * @param enqueueAllJobs jobs of the {@code enqueueAll} figure
 * @param drainJobs jobs pre-filled for a drain figure
 * @param latencySeconds how long the latency producer runs
 * @param latencyWarmUpSeconds how long it runs before samples count
 * @param idleSeconds how long idle CPU is measured
 * @param settleSeconds how long consumers settle before idle CPU is measured
 * @param memoryJobs jobs of the memory figure
 * @param depthOps calls per depth figure (enqueue, claim)
 * @param depthDrainJobs jobs drained per depth
 * @param queuesDrainJobs jobs drained in a queue-count figure, over every queue
 * @param queuesSeconds how long the queue-count idle and latency figures run
 * @param auditJobs jobs of the audit figure, unless {@code --audit-jobs} says otherwise
 * @author EchoMQ
 */
record Scale(int enqueueJobs, int enqueuePipelinedJobs, int enqueueAllJobs, int drainJobs, double latencySeconds,
		double latencyWarmUpSeconds, double idleSeconds, double settleSeconds, int memoryJobs, int depthOps,
		int depthDrainJobs, int queuesDrainJobs, double queuesSeconds, int auditJobs) {

	static Scale full() {
		return new Scale(20_000, 50_000, 100_000, 50_000, 10, 2, 10, 5, 100_000, 2_000, 10_000, 20_000, 5, 100_000);
	}

	Scale withIdle(double idle, double settle) {
		return new Scale(this.enqueueJobs, this.enqueuePipelinedJobs, this.enqueueAllJobs, this.drainJobs,
				this.latencySeconds, this.latencyWarmUpSeconds, idle, settle, this.memoryJobs, this.depthOps,
				this.depthDrainJobs, this.queuesDrainJobs, this.queuesSeconds, this.auditJobs);
	}

	static Scale smoke() {
		return new Scale(200, 400, 1_000, 400, 1, 0.3, 1, 0.3, 1_000, 100, 200, 300, 1, 2_000);
	}

}
