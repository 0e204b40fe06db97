package io.echomq.core;

import java.util.List;
import java.util.Map;

/**
 * The result of auditing one queue's keyspace.
 *
 * @param queue the queue
 * @param counts ids found in each location
 * @param rows job rows found
 * @param violations every broken invariant found, empty when the queue is clean
 * @author EchoMQ
 * @since 0.1.0
 */
public record AuditReport(String queue, Map<JobState, Long> counts, long rows, List<String> violations) {

	/**
	 * Create a report.
	 * @param queue the queue
	 * @param counts ids per location
	 * @param rows job rows found
	 * @param violations broken invariants
	 */
	public AuditReport {
		counts = Map.copyOf(counts);
		violations = List.copyOf(violations);
	}

	/**
	 * Return whether no invariant is broken.
	 * @return {@code true} if clean
	 */
	public boolean isClean() {
		return this.violations.isEmpty();
	}

	/**
	 * Return the number of ids across all locations.
	 * @return the total
	 */
	public long total() {
		return this.counts.values().stream().mapToLong(Long::longValue).sum();
	}

}
