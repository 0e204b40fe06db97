package io.echomq.benchmark;

/**
 * The consumers of one measurement: one consumer per queue, all stopped together.
 *
 * @author EchoMQ
 */
interface Consumers extends AutoCloseable {

	/**
	 * Start consuming a queue.
	 * @param queue the queue
	 * @param concurrency how many handlers run at once
	 * @param handler the handler
	 */
	void start(String queue, int concurrency, BenchHandler handler);

	/**
	 * Return how many jobs were completed (the complete transition applied) so far, over
	 * every queue.
	 * @return the count
	 */
	long completed();

	/**
	 * Stop every consumer and wait for it.
	 */
	@Override
	void close();

}
