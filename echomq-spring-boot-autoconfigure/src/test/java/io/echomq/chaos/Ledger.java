package io.echomq.chaos;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import io.echomq.core.JobId;
import io.echomq.core.TransitionResult;
import io.echomq.listener.JobEventListener;
import io.echomq.listener.ReceivedJob;

/**
 * What happened to the jobs of a chaos run, in the test JVM: the handler calls
 * {@link #ran(JobId)} when a run finishes its work, and as a {@link JobEventListener} the
 * ledger learns which completions the engine recorded. A completion is recorded at most
 * once per job (the row is deleted), so {@link #completions()} counting one id twice
 * would be a fencing failure.
 *
 * @author EchoMQ
 */
final class Ledger implements JobEventListener {

	private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();

	private final Set<String> completed = ConcurrentHashMap.newKeySet();

	private final LongAdder completions = new LongAdder();

	private final LongAdder doubleCompletions = new LongAdder();

	private final LongAdder stale = new LongAdder();

	private final LongAdder failed = new LongAdder();

	/**
	 * Record that a handler run of a job finished its work.
	 * @param id the job
	 */
	void ran(JobId id) {
		this.runs.computeIfAbsent(id.toString(), (key) -> new AtomicInteger()).incrementAndGet();
	}

	@Override
	public void onCompleted(ReceivedJob job, Duration duration) {
		this.completions.increment();
		if (!this.completed.add(job.id().toString())) {
			this.doubleCompletions.increment();
		}
	}

	@Override
	public void onStale(ReceivedJob job, TransitionResult result) {
		this.stale.increment();
	}

	@Override
	public void onFailed(ReceivedJob job, Throwable error, TransitionResult result) {
		this.failed.increment();
	}

	/**
	 * Return whether every given job finished a handler run.
	 * @param ids the jobs
	 * @return {@code true} if all ran
	 */
	boolean ranAll(Collection<JobId> ids) {
		for (JobId id : ids) {
			if (!this.runs.containsKey(id.toString())) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Return whether a job finished a handler run.
	 * @param id the job
	 * @return {@code true} if it ran
	 */
	boolean ran(String id) {
		return this.runs.containsKey(id);
	}

	/**
	 * Return the ids of the jobs that finished a handler run.
	 * @return the ids
	 */
	Set<String> ranIds() {
		return Set.copyOf(this.runs.keySet());
	}

	/**
	 * Return how many distinct jobs finished a handler run.
	 * @return the count
	 */
	int distinctRuns() {
		return this.runs.size();
	}

	/**
	 * Return how many handler runs finished, re-runs included.
	 * @return the count
	 */
	long totalRuns() {
		return this.runs.values().stream().mapToLong(AtomicInteger::get).sum();
	}

	/**
	 * Return the finished runs beyond the first of each job.
	 * @return the re-runs
	 */
	long reruns() {
		return totalRuns() - distinctRuns();
	}

	/**
	 * Return the ids whose completion the engine recorded.
	 * @return the ids
	 */
	Set<String> completedIds() {
		return Set.copyOf(this.completed);
	}

	/**
	 * Return how many completions the engine recorded.
	 * @return the count
	 */
	long completions() {
		return this.completions.sum();
	}

	/**
	 * Return how many recorded completions named a job already completed.
	 * @return the count, 0 unless fencing failed
	 */
	long doubleCompletions() {
		return this.doubleCompletions.sum();
	}

	/**
	 * Return how many outcomes were not recorded because the lease was lost.
	 * @return the count
	 */
	long stale() {
		return this.stale.sum();
	}

	/**
	 * Return how many failed attempts were recorded.
	 * @return the count
	 */
	long failed() {
		return this.failed.sum();
	}

}
