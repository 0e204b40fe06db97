package io.echomq.test.queues;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import io.echomq.core.JobState;
import io.echomq.inspect.JobView;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on what one queue holds, read from Redis at each assertion: counts by
 * location and the jobs themselves (their payload text as the template wrote it, JSON by
 * default).
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public final class QueueAssert extends AbstractAssert<QueueAssert, String> {

	private final EchoMqTestQueues queues;

	QueueAssert(EchoMqTestQueues queues, String queue) {
		super(queue, QueueAssert.class);
		this.queues = queues;
	}

	/**
	 * Assert that the queue holds this many jobs ready to run (lanes included).
	 * @param expected the count
	 * @return this
	 */
	public QueueAssert hasPending(long expected) {
		return has(JobState.PENDING, expected);
	}

	/**
	 * Assert that this many jobs are claimed and running.
	 * @param expected the count
	 * @return this
	 */
	public QueueAssert hasActive(long expected) {
		return has(JobState.ACTIVE, expected);
	}

	/**
	 * Assert that this many jobs wait for their run-at (delayed jobs and retries waiting
	 * out their backoff).
	 * @param expected the count
	 * @return this
	 */
	public QueueAssert hasScheduled(long expected) {
		return has(JobState.SCHEDULE, expected);
	}

	/**
	 * Assert that this many jobs are dead-lettered.
	 * @param expected the count
	 * @return this
	 */
	public QueueAssert hasDead(long expected) {
		return has(JobState.DEAD, expected);
	}

	/**
	 * Assert that this many completed jobs are retained (only with a completed-job
	 * retention).
	 * @param expected the count
	 * @return this
	 */
	public QueueAssert hasCompleted(long expected) {
		return has(JobState.COMPLETED, expected);
	}

	/**
	 * Assert that no job waits to run: none pending, active or scheduled.
	 * @return this
	 */
	public QueueAssert isDrained() {
		hasPending(0);
		hasActive(0);
		return hasScheduled(0);
	}

	/**
	 * Assert that a pending or scheduled job has exactly this payload text.
	 * @param payload the payload text, e.g. {@code "{\"to\":\"ada@example.com\"}"}
	 * @return this
	 */
	public QueueAssert hasEnqueued(String payload) {
		return hasEnqueued((text) -> text.equals(payload), "payload " + payload);
	}

	/**
	 * Assert that a pending or scheduled job has a payload text that matches.
	 * @param payload the condition on the payload text
	 * @return this
	 */
	public QueueAssert hasEnqueued(Predicate<String> payload) {
		return hasEnqueued(payload, "a payload matching the condition");
	}

	/**
	 * Assert that a pending or scheduled job matches.
	 * @param job the condition on the job (payload, attempts, run-at, ...)
	 * @return this
	 */
	public QueueAssert hasEnqueuedJob(Predicate<JobView> job) {
		return hasJob(waiting(), job, "pending or scheduled", "a job matching the condition");
	}

	/**
	 * Assert that no pending or scheduled job has a payload text that matches.
	 * @param payload the condition on the payload text
	 * @return this
	 */
	public QueueAssert hasNotEnqueued(Predicate<String> payload) {
		isNotNull();
		List<JobView> matching = waiting().stream().filter((job) -> payload.test(job.payload())).toList();
		if (!matching.isEmpty()) {
			failWithMessage("Expected queue '%s' to hold no pending or scheduled job matching the condition, but it "
					+ "holds %s", this.actual, payloads(matching));
		}
		return this;
	}

	/**
	 * Assert that a dead-lettered job matches.
	 * @param job the condition on the job (payload, last error, attempts, ...)
	 * @return this
	 */
	public QueueAssert hasDeadJob(Predicate<JobView> job) {
		return hasJob(this.queues.jobs(this.actual, JobState.DEAD), job, "dead", "a job matching the condition");
	}

	private QueueAssert hasEnqueued(Predicate<String> payload, String what) {
		return hasJob(waiting(), (job) -> payload.test(job.payload()), "pending or scheduled", what);
	}

	private QueueAssert hasJob(List<JobView> jobs, Predicate<JobView> condition, String where, String what) {
		isNotNull();
		if (jobs.stream().noneMatch(condition)) {
			failWithMessage("Expected queue '%s' to hold a %s job with %s, but its %s jobs are %s", this.actual, where,
					what, where, payloads(jobs));
		}
		return this;
	}

	private List<JobView> waiting() {
		List<JobView> jobs = new ArrayList<>(this.queues.jobs(this.actual, JobState.PENDING));
		jobs.addAll(this.queues.jobs(this.actual, JobState.SCHEDULE));
		return jobs;
	}

	private static List<String> payloads(List<JobView> jobs) {
		return jobs.stream().map((job) -> job.id() + " " + job.payload()).toList();
	}

	private QueueAssert has(JobState state, long expected) {
		isNotNull();
		long count = this.queues.stats(this.actual).count(state);
		if (count != expected) {
			failWithMessage("Expected queue '%s' to hold %d %s jobs, but it holds %d", this.actual, expected,
					state.value(), count);
		}
		return this;
	}

}
