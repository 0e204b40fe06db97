package io.echomq.crypto;

import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * Keys fixed at construction.
 *
 * @author EchoMQ
 * @since 0.3.0
 */
final class StaticPayloadKeys implements PayloadKeys {

	static final int KEY_BYTES = 32;

	private final KeyVersion current;

	private final Map<KeyVersion, SecretKey> keys;

	StaticPayloadKeys(String current, Map<String, byte[]> keys) {
		Assert.notNull(current, "'current' must not be null");
		Assert.notNull(keys, "'keys' must not be null");
		Map<KeyVersion, SecretKey> byVersion = new LinkedHashMap<>();
		keys.forEach((version, key) -> {
			KeyVersion parsed = KeyVersion.of(version);
			if (key == null || key.length != KEY_BYTES) {
				throw new IllegalArgumentException("Payload key version '" + version
						+ "' must be 32 bytes (AES-256), is " + ((key != null) ? key.length : 0));
			}
			byVersion.put(parsed, new SecretKeySpec(key.clone(), "AES"));
		});
		this.current = KeyVersion.of(current);
		if (!byVersion.containsKey(this.current)) {
			throw new IllegalArgumentException("Current payload key version '" + current + "' has no key; versions "
					+ "with a key: " + keys.keySet());
		}
		this.keys = Map.copyOf(byVersion);
	}

	static StaticPayloadKeys fromBase64(String current, Map<String, String> keys) {
		Map<String, byte[]> decoded = new LinkedHashMap<>();
		keys.forEach((version, text) -> {
			try {
				decoded.put(version, Base64.getDecoder().decode(text.strip()));
			}
			catch (IllegalArgumentException ex) {
				throw new IllegalArgumentException(
						"Payload key version '" + version + "' is not base64: " + ex.getMessage(), ex);
			}
		});
		return new StaticPayloadKeys(current, decoded);
	}

	@Override
	public KeyVersion current() {
		return this.current;
	}

	@Override
	public @Nullable SecretKey find(KeyVersion version) {
		return this.keys.get(version);
	}

	@Override
	public String toString() {
		return "PayloadKeys[current=" + this.current + ", versions=" + this.keys.keySet() + "]";
	}

}
