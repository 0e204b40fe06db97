package io.echomq.autoconfigure;

import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Payload encryption keys ({@code echomq.encryption.*}), used by every queue with
 * {@code echomq.queues.<queue>.encryption.enabled=true} unless the application defines
 * its own {@link io.echomq.crypto.PayloadKeys} bean.
 *
 * @param keys The base64 of each 32-byte AES-256 key, by key version. Keep every version
 * that still has values stored.
 * @param current Key version that encrypts new values.
 * @author EchoMQ
 * @since 0.3.0
 */
@ConfigurationProperties("echomq.encryption")
public record EchoMqEncryptionProperties(@Nullable Map<String, String> keys, @Nullable String current) {

	/**
	 * Copy the keys.
	 * @param keys The keys.
	 * @param current The current version.
	 */
	public EchoMqEncryptionProperties {
		keys = (keys != null) ? Map.copyOf(keys) : Map.of();
	}

	@Override
	public String toString() {
		return "EchoMqEncryptionProperties[versions=" + ((this.keys != null) ? this.keys.keySet() : "[]") + ", current="
				+ this.current + "]";
	}

}
