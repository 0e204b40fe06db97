package io.echomq.crypto;

import java.util.regex.Pattern;

import org.springframework.util.Assert;

/**
 * The version of a payload key, stored in clear with every value it encrypted
 * ({@code emq1:<version>:...}) so that the value can be decrypted after the current key
 * changed.
 *
 * @param id the version: 1 to 64 letters, digits, '.', '_' or '-'
 * @author EchoMQ
 * @since 0.3.0
 */
public record KeyVersion(String id) {

	private static final Pattern VALID = Pattern.compile("[A-Za-z0-9._-]{1,64}");

	/**
	 * Validate the version.
	 * @param id the version
	 */
	public KeyVersion {
		Assert.notNull(id, "'id' must not be null");
		if (!VALID.matcher(id).matches()) {
			throw new IllegalArgumentException("Key version '" + id
					+ "' is not valid: use 1 to 64 letters, digits, '.', '_' or '-' (it is stored in clear before a ':')");
		}
	}

	/**
	 * Return the version named by a string.
	 * @param id the version
	 * @return the version
	 */
	public static KeyVersion of(String id) {
		return new KeyVersion(id);
	}

	@Override
	public String toString() {
		return this.id;
	}

}
