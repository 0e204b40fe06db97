package io.echomq.benchmark;

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
	 * @param payload the job's payload
	 */
	void handle(String payload);

}
