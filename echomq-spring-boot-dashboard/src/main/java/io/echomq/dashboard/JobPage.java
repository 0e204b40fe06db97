package io.echomq.dashboard;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * A page of jobs.
 *
 * @param queue the queue
 * @param state the location
 * @param offset how many were skipped
 * @param limit the page size
 * @param total how many the location holds
 * @param jobs the page
 * @param partition the partition shown, or {@code null} for every partition
 * @param partitionCount how many partitions the queue has
 * @param mergedWindow how far ({@code offset + limit}) a page of every partition reaches,
 * or {@code null} when one partition (or an unpartitioned queue) is shown
 * @param partitions the partition (engine queue name) of each job of a partitioned queue,
 * by job id; empty otherwise
 * @param lanes the fair lane of each pending job listed from a lane, by job id (those
 * come after the others)
 * @author EchoMQ
 * @since 0.1.0
 */
public record JobPage(QueueSummary queue, String state, int offset, int limit, long total, List<JobItem> jobs,
		@Nullable Integer partition, int partitionCount, @Nullable Integer mergedWindow, Map<String, String> partitions,
		Map<String, String> lanes) {

}
