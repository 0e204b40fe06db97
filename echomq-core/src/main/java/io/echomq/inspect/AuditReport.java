package io.echomq.inspect;

import java.util.List;
import java.util.Map;

import io.echomq.core.JobState;

/**
 * The result of auditing one queue's keyspace.
 *
 * @param queue the queue
 * @param counts ids found in each location
 * @param rows job rows found
 * @param violations the broken invariants found, each naming the member, row or key; at
 * most {@link QueueAuditor#MAX_LISTED} of them
 * @param violationCount how many broken invariants were found in all
 * @author EchoMQ
 * @since 0.1.0
 */
public record AuditReport(String queue, Map<JobState, Long> counts, long rows, List<String> violations,
		long violationCount) {

	/**
	 * Create a report.
	 * @param queue the queue
	 * @param counts ids per location
	 * @param rows job rows found
	 * @param violations broken invariants listed
	 * @param violationCount broken invariants found
	 */
	public AuditReport {
		counts = Map.copyOf(counts);
		violations = List.copyOf(violations);
	}

	/**
	 * Create a report that lists every violation it found.
	 * @param queue the queue
	 * @param counts ids per location
	 * @param rows job rows found
	 * @param violations broken invariants
	 */
	public AuditReport(String queue, Map<JobState, Long> counts, long rows, List<String> violations) {
		this(queue, counts, rows, violations, violations.size());
	}

	/**
	 * Return whether no invariant is broken.
	 * @return {@code true} if clean
	 */
	public boolean isClean() {
		return this.violationCount == 0;
	}

	/**
	 * Return the number of ids across all locations, the quarantine included.
	 * @return the total
	 */
	public long total() {
		return this.counts.values().stream().mapToLong(Long::longValue).sum();
	}

}
