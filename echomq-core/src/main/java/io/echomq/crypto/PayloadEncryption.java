package io.echomq.crypto;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;

import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * Encrypts and decrypts stored text (payloads, results, progress objects) with
 * AES-256-GCM. Each value gets a random 12-byte IV; the queue name is authenticated with
 * it (additional data), so a value cannot be moved to another queue and still decrypt.
 * The stored form is {@code emq1:<version>:<base64(iv | ciphertext | tag)>}, plain ASCII.
 * Thread-safe.
 *
 * @author EchoMQ
 * @since 0.3.0
 */
public final class PayloadEncryption {

	/** The prefix of every value this class writes. */
	public static final String PREFIX = "emq1:";

	private static final String TRANSFORMATION = "AES/GCM/NoPadding";

	private static final int IV_BYTES = 12;

	private static final int TAG_BITS = 128;

	private static final int TAG_BYTES = TAG_BITS / 8;

	private final PayloadKeys keys;

	private final SecureRandom random = new SecureRandom();

	/**
	 * Create an encryption with the given keys.
	 * @param keys the keys
	 */
	public PayloadEncryption(PayloadKeys keys) {
		Assert.notNull(keys, "'keys' must not be null");
		this.keys = keys;
	}

	/**
	 * Return whether a stored text is in the encrypted form (by its prefix only).
	 * @param text the stored text
	 * @return whether it starts with {@value #PREFIX}
	 */
	public static boolean isEncrypted(@Nullable String text) {
		return text != null && text.startsWith(PREFIX);
	}

	/**
	 * Encrypt a text with the current key.
	 * @param queue the logical queue the value is stored for (authenticated)
	 * @param plaintext the text the payload converter wrote
	 * @return {@code emq1:<version>:<base64>}
	 */
	public String encrypt(String queue, String plaintext) {
		Assert.notNull(queue, "'queue' must not be null");
		Assert.notNull(plaintext, "'plaintext' must not be null");
		KeyVersion version = this.keys.current();
		SecretKey key = this.keys.find(version);
		if (key == null) {
			throw new IllegalStateException(
					"PayloadKeys " + this.keys + " has no key for its own current version '" + version + "'");
		}
		byte[] iv = new byte[IV_BYTES];
		this.random.nextBytes(iv);
		byte[] input = plaintext.getBytes(StandardCharsets.UTF_8);
		try {
			Cipher cipher = Cipher.getInstance(TRANSFORMATION);
			cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, iv));
			cipher.updateAAD(additionalData(version, queue));
			byte[] sealed = new byte[IV_BYTES + cipher.getOutputSize(input.length)];
			System.arraycopy(iv, 0, sealed, 0, IV_BYTES);
			int written = cipher.doFinal(input, 0, input.length, sealed, IV_BYTES);
			Assert.state(written == sealed.length - IV_BYTES, "Unexpected AES-GCM output size");
			return PREFIX + version.id() + ":" + Base64.getEncoder().encodeToString(sealed);
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("AES-GCM encryption failed for queue '" + queue + "' with key version '"
					+ version + "': " + ex.getMessage(), ex);
		}
	}

	/**
	 * Decrypt a stored text.
	 * @param queue the logical queue the value was stored for
	 * @param stored the stored {@code emq1:<version>:<base64>} text
	 * @return the text the payload converter wrote
	 * @throws PayloadDecryptionException if the text is malformed, its key version is
	 * unknown, or it fails authentication
	 */
	public String decrypt(String queue, String stored) {
		Assert.notNull(queue, "'queue' must not be null");
		Assert.notNull(stored, "'stored' must not be null");
		if (!isEncrypted(stored)) {
			throw new PayloadDecryptionException(
					"Value of queue '" + queue + "' is not encrypted: expected 'emq1:<key version>:<base64>', found "
							+ "text starting '" + head(stored) + "'",
					null);
		}
		int colon = stored.indexOf(':', PREFIX.length());
		if (colon < 0) {
			throw new PayloadDecryptionException("Encrypted value of queue '" + queue
					+ "' has no key version: expected 'emq1:<key version>:<base64>'", null);
		}
		KeyVersion version;
		try {
			version = KeyVersion.of(stored.substring(PREFIX.length(), colon));
		}
		catch (IllegalArgumentException ex) {
			throw new PayloadDecryptionException(
					"Encrypted value of queue '" + queue + "' has an invalid key version: " + ex.getMessage(), null,
					ex);
		}
		SecretKey key = this.keys.find(version);
		if (key == null) {
			throw new PayloadDecryptionException("Encrypted value of queue '" + queue + "' needs payload key version '"
					+ version + "', which this application does not have (current version '" + this.keys.current()
					+ "'): keep every version that still has values stored", version);
		}
		byte[] sealed;
		try {
			sealed = Base64.getDecoder().decode(stored.substring(colon + 1));
		}
		catch (IllegalArgumentException ex) {
			throw new PayloadDecryptionException("Encrypted value of queue '" + queue + "' (key version '" + version
					+ "') is not valid base64: " + ex.getMessage(), version, ex);
		}
		if (sealed.length < IV_BYTES + TAG_BYTES) {
			throw new PayloadDecryptionException(
					"Encrypted value of queue '" + queue + "' (key version '" + version + "') is too short: "
							+ sealed.length + " bytes, at least " + (IV_BYTES + TAG_BYTES) + " expected (IV and tag)",
					version);
		}
		try {
			Cipher cipher = Cipher.getInstance(TRANSFORMATION);
			cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, sealed, 0, IV_BYTES));
			cipher.updateAAD(additionalData(version, queue));
			byte[] plain = cipher.doFinal(sealed, IV_BYTES, sealed.length - IV_BYTES);
			return new String(plain, StandardCharsets.UTF_8);
		}
		catch (AEADBadTagException ex) {
			throw new PayloadDecryptionException("Encrypted value of queue '" + queue + "' fails authentication with "
					+ "payload key version '" + version + "': it was altered, encrypted for another queue, or with "
					+ "another key under the same version", version, ex);
		}
		catch (GeneralSecurityException ex) {
			throw new PayloadDecryptionException("Encrypted value of queue '" + queue + "' (key version '" + version
					+ "') cannot be decrypted: " + ex.getMessage(), version, ex);
		}
	}

	/**
	 * Return the keys.
	 * @return the keys
	 */
	public PayloadKeys getKeys() {
		return this.keys;
	}

	private static byte[] additionalData(KeyVersion version, String queue) {
		byte[] prefix = (PREFIX + version.id() + ":").getBytes(StandardCharsets.US_ASCII);
		byte[] name = queue.getBytes(StandardCharsets.UTF_8);
		return ByteBuffer.allocate(prefix.length + name.length).put(prefix).put(name).array();
	}

	private static String head(String text) {
		return (text.length() <= 8) ? text : text.substring(0, 8) + "...";
	}

}
