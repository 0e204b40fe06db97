package io.echomq.benchmark;

import io.echomq.core.ClaimedJob;

/**
 * What a benchmark handler does with a job: usually nothing but count it, or take its
 * latency sample.
 *
 * @author EchoMQ
 */
@FunctionalInterface
interface BenchHandler {

	/**
	 * Handle a job; called at handler entry.
	 * @param job the job
	 */
	void handle(ClaimedJob job);

}
