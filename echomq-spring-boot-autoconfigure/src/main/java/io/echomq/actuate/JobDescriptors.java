package io.echomq.actuate;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;

/**
 * What the {@code echomq} endpoint reports about jobs and what its operations on them
 * did: dead jobs, one job, its result, an audit, a replay, a purge, a cancel and a pause.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public final class JobDescriptors {

	private JobDescriptors() {
	}

	/**
	 * What a cancel did.
	 *
	 * @param id the job id
	 * @param outcome {@code cancelled} (removed), {@code requested} (running: its handler
	 * is stopped and its outcome discarded), {@code not_found} (finished or unknown) or
	 * {@code refused} (quarantined or malformed)
	 * @param state the state the job was in, {@code null} when not found
	 * @param requestedAt when the cancel of a running job was first asked for, else
	 * {@code null}
	 * @param detail why it was refused or not found, else {@code null}
	 */
	public record CancelDescriptor(String id, String outcome, @Nullable String state, @Nullable Instant requestedAt,
			@Nullable String detail) implements OperationResponseBody {

	}

	/**
	 * A queue's cluster-wide pause.
	 *
	 * @param queue the queue
	 * @param paused whether it is paused now
	 * @param remainingMillis how long a timed pause lasts still, {@code null} when not
	 * paused or paused until resumed
	 * @param changed whether the request changed the pause
	 */
	public record PauseDescriptor(String queue, boolean paused, @Nullable Long remainingMillis,
			boolean changed) implements OperationResponseBody {

	}

	/**
	 * One lane's controls.
	 *
	 * @param queue the queue
	 * @param lane the lane key
	 * @param paused whether the lane is paused (its jobs wait, unclaimed)
	 * @param pendingCap the most jobs an enqueue may leave pending in the lane,
	 * {@code null} for none
	 * @param pending how many jobs the lane holds pending
	 * @param maxActive the lane's own max-active, {@code null} for the queue's lane
	 * default
	 * @param rateLimit the lane's own rate, {@code null} for the queue's lane default
	 * @param period the window of {@code rateLimit} (ISO-8601), {@code null} with it
	 * @param changed whether the request changed the controls ({@code false} for a read)
	 */
	public record LaneDescriptor(String queue, String lane, boolean paused, @Nullable Long pendingCap, long pending,
			@Nullable Integer maxActive, @Nullable Integer rateLimit, @Nullable String period,
			boolean changed) implements OperationResponseBody {

	}

	/**
	 * A page of dead jobs.
	 *
	 * @param offset how many were skipped
	 * @param limit the page size asked for
	 * @param total how many dead jobs the queue holds
	 * @param jobs the page, most recent first
	 */
	public record DeadJobsDescriptor(int offset, int limit, long total,
			List<DeadJobDescriptor> jobs) implements OperationResponseBody {

	}

	/**
	 * A dead job.
	 *
	 * @param id the job id
	 * @param attempts attempts made
	 * @param maxAttempts the attempt budget it had
	 * @param enqueuedAt when it was enqueued
	 * @param deadAt when it was dead-lettered
	 * @param lastError the last error, or {@code null}
	 * @param payload the payload, sanitized unless shown
	 */
	public record DeadJobDescriptor(String id, long attempts, long maxAttempts, Instant enqueuedAt,
			@Nullable Instant deadAt, @Nullable String lastError, @Nullable Object payload) {

	}

	/**
	 * An audit of a queue's keyspace.
	 *
	 * @param clean whether no invariant is broken
	 * @param counts ids found in each location, the quarantine included
	 * @param rows job rows found
	 * @param violationCount how many broken invariants were found
	 * @param violations the broken invariants found, at most
	 * {@value io.echomq.inspect.QueueAuditor#MAX_LISTED}
	 * @param partitions the audit of each partition of a partitioned queue (the fields
	 * above sum them up), by partition name; {@code null} for a queue with one partition
	 */
	public record AuditDescriptor(boolean clean, Map<String, Long> counts, long rows, long violationCount,
			List<String> violations,
			@Nullable Map<String, AuditDescriptor> partitions) implements OperationResponseBody {

	}

	/**
	 * The outcome of a replay.
	 *
	 * @param replayed whether the job moved from dead to pending
	 * @param state the state the job is in now
	 * @param maxAttempts the attempt budget it was given
	 */
	public record ReplayDescriptor(boolean replayed, String state, int maxAttempts) implements OperationResponseBody {

	}

	/**
	 * The outcome of a purge.
	 *
	 * @param purged how many dead jobs were deleted
	 */
	public record PurgeDescriptor(long purged) implements OperationResponseBody {

	}

	/**
	 * One job.
	 *
	 * @param id the job id
	 * @param state the state its row names
	 * @param attempts claims so far
	 * @param maxAttempts its attempt budget
	 * @param enqueuedAt when it was enqueued, {@code null} if the row does not say
	 * @param lastError the last error, or {@code null}
	 * @param payload the payload, sanitized unless shown
	 * @param progress how far it got in percent, as its handler last reported, or
	 * {@code null} if none
	 * @param progressData the object its handler last reported as progress, sanitized
	 * unless shown; {@code null} if none
	 */
	public record JobDescriptor(String id, String state, long attempts, long maxAttempts, @Nullable Instant enqueuedAt,
			@Nullable String lastError, @Nullable Object payload, @Nullable Integer progress,
			@Nullable Object progressData) implements OperationResponseBody {

	}

	/**
	 * A completed job's result.
	 *
	 * @param id the job id
	 * @param size its size in bytes, as the payload converter wrote it
	 * @param result the result, sanitized unless shown
	 */
	public record ResultDescriptor(String id, long size, @Nullable Object result) implements OperationResponseBody {

	}

}
