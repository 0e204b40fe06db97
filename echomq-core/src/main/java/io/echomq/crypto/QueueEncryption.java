package io.echomq.crypto;

import java.lang.reflect.Type;
import java.util.Set;

import io.echomq.support.PayloadConverter;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * Which queues encrypt what they store, and with what. The producer {@linkplain #seal
 * seals} the text its converter wrote; a consumer {@linkplain #open opens} it before its
 * converter reads it. Queues not named pass text through unchanged. On an encrypted
 * queue, text that is not in the encrypted form (written before encryption was turned on)
 * is also passed through, so a queue can be switched on while it holds jobs.
 *
 * @author EchoMQ
 * @since 0.3.0
 */
public final class QueueEncryption {

	private static final QueueEncryption NONE = new QueueEncryption();

	private final @Nullable PayloadEncryption encryption;

	private final Set<String> queues;

	private QueueEncryption() {
		this.encryption = null;
		this.queues = Set.of();
	}

	private QueueEncryption(PayloadEncryption encryption, Set<String> queues) {
		Assert.notNull(encryption, "'encryption' must not be null");
		Assert.notNull(queues, "'queues' must not be null");
		this.encryption = encryption;
		this.queues = Set.copyOf(queues);
	}

	/**
	 * Return an instance that encrypts no queue.
	 * @return the instance
	 */
	public static QueueEncryption none() {
		return NONE;
	}

	/**
	 * Return an instance that encrypts the given logical queues.
	 * @param encryption the encryption
	 * @param queues the logical queue names (a partitioned queue by its name, not its
	 * partitions')
	 * @return the instance
	 */
	public static QueueEncryption of(PayloadEncryption encryption, Set<String> queues) {
		return new QueueEncryption(encryption, queues);
	}

	/**
	 * Return whether a queue encrypts what it stores.
	 * @param queue the logical queue name
	 * @return whether it is encrypted
	 */
	public boolean isEncrypted(String queue) {
		return this.queues.contains(queue);
	}

	/**
	 * Return the encrypted queues.
	 * @return the logical queue names
	 */
	public Set<String> getQueues() {
		return this.queues;
	}

	/**
	 * Encrypt a text to be stored for a queue, if the queue is encrypted.
	 * @param queue the logical queue name
	 * @param text the text the payload converter wrote
	 * @return the text to store
	 */
	public String seal(String queue, String text) {
		PayloadEncryption encryption = this.encryption;
		return (encryption != null && isEncrypted(queue)) ? encryption.encrypt(queue, text) : text;
	}

	/**
	 * Decrypt a text stored for a queue, if the queue is encrypted and the text is in the
	 * encrypted form.
	 * @param queue the logical queue name
	 * @param stored the stored text
	 * @return the text the payload converter wrote
	 * @throws PayloadDecryptionException if the text cannot be decrypted
	 */
	public String open(String queue, String stored) {
		PayloadEncryption encryption = this.encryption;
		if (encryption == null || !isEncrypted(queue) || !PayloadEncryption.isEncrypted(stored)) {
			return stored;
		}
		return encryption.decrypt(queue, stored);
	}

	/**
	 * Return a converter that seals what it writes for a queue and reads text as it is,
	 * or {@code converter} itself if the queue is not encrypted. For a handler on a
	 * listener container, which opens each payload before any handler sees it: reading
	 * with {@link #converter} there would decrypt a payload twice.
	 * @param queue the logical queue name
	 * @param converter the payload converter
	 * @return the converter to use for results and progress objects of the queue
	 */
	public PayloadConverter sealing(String queue, PayloadConverter converter) {
		if (!isEncrypted(queue)) {
			return converter;
		}
		return new SealingConverter(queue, converter, false);
	}

	/**
	 * Return a converter that seals what it writes and opens what it reads for a queue,
	 * or {@code converter} itself if the queue is not encrypted. Not for a handler on a
	 * listener container, which has opened the payload already: use {@link #sealing}.
	 * @param queue the logical queue name
	 * @param converter the payload converter
	 * @return the converter to use for the queue
	 */
	public PayloadConverter converter(String queue, PayloadConverter converter) {
		if (!isEncrypted(queue)) {
			return converter;
		}
		return new SealingConverter(queue, converter, true);
	}

	/**
	 * A queue's converter that seals what it writes, and opens what it reads when asked.
	 */
	private final class SealingConverter implements PayloadConverter {

		private final String queue;

		private final PayloadConverter converter;

		private final boolean opens;

		SealingConverter(String queue, PayloadConverter converter, boolean opens) {
			this.queue = queue;
			this.converter = converter;
			this.opens = opens;
		}

		@Override
		public String write(Object payload) {
			return seal(this.queue, this.converter.write(payload));
		}

		@Override
		public Object read(String text, Type type) {
			return this.converter.read(this.opens ? open(this.queue, text) : text, type);
		}

		@Override
		public String toString() {
			return (this.opens ? "encrypted(" : "sealing(") + this.queue + ", " + this.converter + ")";
		}

	}

}
