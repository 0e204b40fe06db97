package io.echomq.crypto;

import java.util.Map;

import javax.crypto.SecretKey;

import org.jspecify.annotations.Nullable;

/**
 * The keys payloads are encrypted with: the current version encrypts new values, and
 * every version that still has values stored must stay available to decrypt them.
 * Implement it to read keys from a key management service or a vault; keys from
 * configuration are {@link #of(String, Map) static}.
 *
 * @author EchoMQ
 * @since 0.3.0
 */
public interface PayloadKeys {

	/**
	 * Return the version new values are encrypted with.
	 * @return the current version, which {@link #find} must know
	 */
	KeyVersion current();

	/**
	 * Return the key of a version.
	 * @param version the version a stored value names
	 * @return its 256-bit AES key, or {@code null} if this application has no key of that
	 * version (the value then cannot be decrypted)
	 */
	@Nullable SecretKey find(KeyVersion version);

	/**
	 * Return fixed keys.
	 * @param current the version that encrypts new values
	 * @param keys the raw 32-byte keys by version
	 * @return the keys
	 * @throws IllegalArgumentException if a key is not 32 bytes or the current version
	 * has no key
	 */
	static PayloadKeys of(String current, Map<String, byte[]> keys) {
		return new StaticPayloadKeys(current, keys);
	}

	/**
	 * Return fixed keys given in base64, as in configuration.
	 * @param current the version that encrypts new values
	 * @param keys the base64 of each 32-byte key, by version
	 * @return the keys
	 * @throws IllegalArgumentException if a key is not base64 of 32 bytes or the current
	 * version has no key
	 */
	static PayloadKeys ofBase64(String current, Map<String, String> keys) {
		return StaticPayloadKeys.fromBase64(current, keys);
	}

}
