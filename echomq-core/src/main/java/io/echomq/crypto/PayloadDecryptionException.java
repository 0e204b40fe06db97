package io.echomq.crypto;

import io.echomq.support.PayloadConversionException;
import org.jspecify.annotations.Nullable;

/**
 * Thrown when a stored value of an encrypted queue cannot be decrypted: it is not in the
 * {@code emq1:<version>:<base64>} form, its key version is unknown here, or it fails
 * authentication (tampered, or moved from another queue). A listener dead-letters the job
 * at once with this message: running it again would fail the same way.
 *
 * @author EchoMQ
 * @since 0.3.0
 */
public class PayloadDecryptionException extends PayloadConversionException {

	private static final long serialVersionUID = 1L;

	private final @Nullable KeyVersion version;

	/**
	 * Create a new exception.
	 * @param message why the value cannot be decrypted
	 * @param version the key version the value names, or {@code null} if unreadable
	 */
	public PayloadDecryptionException(String message, @Nullable KeyVersion version) {
		super(message);
		this.version = version;
	}

	/**
	 * Create a new exception with a cause.
	 * @param message why the value cannot be decrypted
	 * @param version the key version the value names, or {@code null} if unreadable
	 * @param cause the underlying failure
	 */
	public PayloadDecryptionException(String message, @Nullable KeyVersion version, Throwable cause) {
		super(message, cause);
		this.version = version;
	}

	/**
	 * Return the key version the value names.
	 * @return the version, or {@code null} if the value does not name one
	 */
	public @Nullable KeyVersion getVersion() {
		return this.version;
	}

}
