package io.echomq.listener;

import java.time.Instant;
import java.util.Map;

import io.echomq.core.JobAttempt;
import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.JobId;
import io.echomq.crypto.PayloadDecryptionException;
import io.echomq.crypto.QueueEncryption;

/**
 * A claimed job as its handler receives it: what the handler needs to know of it, without
 * the claim's fencing token, which the container alone uses to record the outcome.
 *
 * @param queue the queue the job was claimed from
 * @param id the job id
 * @param attempt the attempt this run counts as against the job's budget, starting at 1
 * @param maxAttempts the attempt number after which a failure dead-letters the job (the
 * row's budget; {@link JobContext#maxAttempts()} also applies the listener's cap)
 * @param payload the payload text (decrypted by the container on an encrypted queue)
 * @param enqueuedAt when the job was enqueued (server time)
 * @param readyAt when the job last became claimable (server time)
 * @param claimedAt when it was claimed (server time)
 * @param leaseDeadline when the lease expires unless extended (server time)
 * @param fields the other row fields (such as trace headers), never {@code null}
 * @author EchoMQ
 * @since 0.1.0
 */
public record ReceivedJob(String queue, JobId id, long attempt, long maxAttempts, String payload, Instant enqueuedAt,
		Instant readyAt, Instant claimedAt, Instant leaseDeadline, Map<String, String> fields) implements JobAttempt {

	/**
	 * Return what a handler receives of a claimed job.
	 * @param job the claimed job
	 * @return the job without its fencing token
	 */
	static ReceivedJob of(ClaimedJob job) {
		return new ReceivedJob(job.queue(), job.id(), job.attempt(), job.maxAttempts(), job.payload(), job.enqueuedAt(),
				job.readyAt(), job.claimedAt(), job.leaseDeadline(), job.fields());
	}

	/**
	 * Return this job with its payload decrypted through its queue's encryption.
	 * @param encryption the queue encryption
	 * @param queue the queue the payload was sealed for (a partitioned queue's logical
	 * name)
	 * @return the job with the plaintext payload
	 * @throws UnreadablePayloadException if the payload cannot be decrypted
	 */
	ReceivedJob opened(QueueEncryption encryption, String queue) {
		String text;
		try {
			text = encryption.open(queue, this.payload);
		}
		catch (PayloadDecryptionException ex) {
			throw new UnreadablePayloadException(
					"Payload of job " + this.id + " cannot be decrypted: " + ex.getMessage(), ex);
		}
		return new ReceivedJob(this.queue, this.id, this.attempt, this.maxAttempts, text, this.enqueuedAt, this.readyAt,
				this.claimedAt, this.leaseDeadline, this.fields);
	}

}
