package io.echomq.dashboard;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * One job.
 *
 * @param queue the queue
 * @param id the job id
 * @param state the state its row names
 * @param attempts claims so far (the fencing token)
 * @param released claims handed back without spending an attempt
 * @param maxAttempts its attempt budget
 * @param lastError the last error, or {@code null}
 * @param payload the payload, sanitized unless shown
 * @param fields every other field of the row, extra fields sanitized unless shown
 * @param timeline what happened when, oldest first
 * @param problem what is wrong with the row, or {@code null}
 * @param partition the partition (engine queue name) the job lives in, or {@code null}
 * for an unpartitioned queue
 * @param claimedBy the node that claimed it last: while it is active, the node whose
 * listener holds its lease; {@code null} if no claim named one
 * @param progress how far it got in percent, as its handler last reported
 * ({@code JobContext.progress(int)}), or {@code null} if it reported none
 * @param progressData the object its handler last reported as progress
 * ({@code JobContext.progress(Object)}), sanitized unless shown; {@code null} if none
 * @param result the result a completed job's handler returned, sanitized unless shown;
 * {@code null} if none is on the row
 * @author EchoMQ
 * @since 0.1.0
 */
public record JobDetail(String queue, String id, String state, long attempts, long released, long maxAttempts,
		@Nullable String lastError, @Nullable Object payload, Map<String, @Nullable Object> fields,
		List<TimelineEntry> timeline, @Nullable String problem, @Nullable String partition, @Nullable String claimedBy,
		@Nullable Integer progress, @Nullable Object progressData, @Nullable Object result) {

}
