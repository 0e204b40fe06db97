package io.echomq.inspect;

import java.time.Duration;

/**
 * What a queue has to do now, as a signal to scale workers on: the jobs that could start
 * now, how long the one that became ready first has waited, and the completion rate of
 * the last minutes. Read by {@link QueueBacklogs}; a partitioned queue's is the sum over
 * its partitions ({@link #plus(Backlog)}).
 *
 * @param queue the queue
 * @param runnable jobs that could start now: pending (in lanes too) and scheduled jobs
 * whose run-at has passed
 * @param age how long the longest-waiting of the jobs at the heads of the queue's
 * locations has been ready (see {@link QueueBacklogs}); zero when nothing is runnable
 * @param completionRate jobs completed per second over the last
 * {@value QueueBacklogs#RATE_MINUTES} whole minutes, on every node
 * @author EchoMQ
 * @since 0.5.0
 */
public record Backlog(String queue, long runnable, Duration age, double completionRate) {

	/**
	 * Return how long the runnable jobs take at the recent completion rate.
	 * @return seconds; 0 when nothing is runnable; {@link Double#NaN} when jobs are
	 * runnable but none completed lately (no rate to estimate from: scale on
	 * {@link #runnable()} and {@link #age()} then)
	 */
	public double estimatedSeconds() {
		if (this.runnable == 0) {
			return 0;
		}
		return (this.completionRate > 0) ? this.runnable / this.completionRate : Double.NaN;
	}

	/**
	 * Add another part of the same queue (a partition).
	 * @param other the other part
	 * @return the sums, the longer age
	 */
	public Backlog plus(Backlog other) {
		return new Backlog(this.queue, this.runnable + other.runnable,
				(this.age.compareTo(other.age) >= 0) ? this.age : other.age,
				this.completionRate + other.completionRate);
	}

}
