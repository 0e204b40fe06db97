package io.echomq.events;

import java.time.Instant;
import java.util.Map;

import io.echomq.crypto.QueueEncryption;
import org.jspecify.annotations.Nullable;

/**
 * One transition of one job, as a queue's event stream ({@code emq:{q}:events}) holds it.
 *
 * @param queue the queue
 * @param sequence the event's number in the queue's stream (1, 2, ...): consecutive
 * events of a queue have consecutive numbers, so a reader counts what it missed
 * @param type what happened
 * @param id the job id
 * @param attempts the job's attempts when it happened (the claim's token)
 * @param time when it happened (server time)
 * @param state where the job went, for the events that say it ({@code pending},
 * {@code schedule}, {@code dead}), else {@code null}
 * @param resultSize the size in bytes of a completed job's result (0 for none)
 * @param progress a progress event's percent or object text, else {@code null}; on an
 * encrypted queue the object text is stored encrypted, as the job's row holds it: see
 * {@link #decrypt(QueueEncryption)}
 * @param error the error of a retried or dead job, else {@code null}
 * @author EchoMQ
 * @since 0.2.0
 */
public record JobEvent(String queue, long sequence, JobEventType type, String id, int attempts, Instant time,
		@Nullable String state, long resultSize, @Nullable String progress, @Nullable String error) {

	/**
	 * Read an event from a stream entry.
	 * @param queue the queue
	 * @param entryId the entry id ({@code <sequence>-0})
	 * @param fields the entry's fields
	 * @return the event
	 * @throws IllegalArgumentException if the entry is not an event
	 */
	public static JobEvent of(String queue, String entryId, Map<?, ?> fields) {
		String type = text(fields, "type");
		String id = text(fields, "id");
		if (type == null || id == null) {
			throw new IllegalArgumentException(
					"entry " + entryId + " of the events of " + queue + " is not a job event: " + fields);
		}
		String progress = text(fields, "progress");
		return new JobEvent(queue, sequence(entryId), JobEventType.fromValue(type), id,
				(int) number(fields, "attempts"), Instant.ofEpochMilli(number(fields, "at")), text(fields, "state"),
				number(fields, "size"), (progress != null) ? progress : text(fields, "progress_data"),
				text(fields, "error"));
	}

	/**
	 * Return this event with its progress object text decrypted by the queue's
	 * encryption. An encrypted queue's stream holds what its rows hold, so a progress
	 * object arrives as ciphertext; a percent, an event of a queue the encryption does
	 * not name, and text not in the encrypted form are returned as they are.
	 * @param encryption the queues' encryption (the {@code QueueEncryption} bean)
	 * @return the event, decrypted
	 * @throws io.echomq.crypto.PayloadDecryptionException if the text cannot be decrypted
	 * @since 0.5.0
	 */
	public JobEvent decrypt(QueueEncryption encryption) {
		String text = this.progress;
		if (text == null || !encryption.isEncrypted(this.queue)) {
			return this;
		}
		String open = encryption.open(this.queue, text);
		return open.equals(text) ? this : new JobEvent(this.queue, this.sequence, this.type, this.id, this.attempts,
				this.time, this.state, this.resultSize, open, this.error);
	}

	/**
	 * Return the sequence number an entry id carries.
	 * @param entryId the entry id ({@code <sequence>-0})
	 * @return the sequence number
	 */
	public static long sequence(String entryId) {
		int dash = entryId.indexOf('-');
		return Long.parseLong((dash < 0) ? entryId : entryId.substring(0, dash));
	}

	private static @Nullable String text(Map<?, ?> fields, String name) {
		Object value = fields.get(name);
		return (value != null) ? value.toString() : null;
	}

	private static long number(Map<?, ?> fields, String name) {
		String value = text(fields, name);
		if (value == null) {
			return 0;
		}
		try {
			return Long.parseLong(value);
		}
		catch (NumberFormatException ex) {
			return 0;
		}
	}

}
