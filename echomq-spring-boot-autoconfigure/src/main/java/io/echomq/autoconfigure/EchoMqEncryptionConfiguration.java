package io.echomq.autoconfigure;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import io.echomq.crypto.PayloadEncryption;
import io.echomq.crypto.PayloadKeys;
import io.echomq.crypto.QueueEncryption;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Payload encryption: the keys from {@code echomq.encryption.*} (or the application's
 * {@link PayloadKeys} bean) and the queues that encrypt.
 *
 * @author EchoMQ
 * @since 0.3.0
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(EchoMqEncryptionProperties.class)
final class EchoMqEncryptionConfiguration {

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnProperty("echomq.encryption.current")
	PayloadKeys echoMqPayloadKeys(EchoMqEncryptionProperties encryption) {
		String current = encryption.current();
		Map<String, String> keys = encryption.keys();
		if (current == null || keys == null) {
			throw new EchoMqConfigurationException("echomq.encryption.current is set but echomq.encryption.keys is not",
					"Set echomq.encryption.keys.<version> to the base64 of a 32-byte key for each key version, "
							+ "including the current one '" + current + "'.");
		}
		try {
			return PayloadKeys.ofBase64(current, keys);
		}
		catch (IllegalArgumentException ex) {
			throw new EchoMqConfigurationException("Invalid echomq.encryption.keys: " + ex
				.getMessage(), "Give each echomq.encryption.keys.<version> the base64 of 32 random bytes "
						+ "(e.g. openssl rand -base64 32) and set echomq.encryption.current to one of the versions.",
					ex);
		}
	}

	@Bean
	@ConditionalOnMissingBean
	QueueEncryption echoMqQueueEncryption(EchoMqProperties properties, ObjectProvider<PayloadKeys> keys) {
		Set<String> queues = new LinkedHashSet<>();
		properties.queues().forEach((queue, overrides) -> {
			if (overrides.encryption() != null && overrides.encryption().enabled()) {
				queues.add(queue);
			}
		});
		if (queues.isEmpty()) {
			return QueueEncryption.none();
		}
		PayloadKeys payloadKeys = keys.getIfUnique();
		if (payloadKeys == null) {
			String queue = queues.iterator().next();
			throw new EchoMqConfigurationException("Queue '" + queue + "' has echomq.queues." + queue
					+ ".encryption.enabled=true but there are no payload keys: set echomq.encryption.keys.<version> "
					+ "(base64 of 32 bytes) and echomq.encryption.current, or define a PayloadKeys bean",
					"Set echomq.encryption.keys.<version> to the base64 of a 32-byte key (e.g. openssl rand -base64 32) "
							+ "and echomq.encryption.current to that version, or define a PayloadKeys bean; "
							+ "or set echomq.queues." + queue + ".encryption.enabled=false.");
		}
		return QueueEncryption.of(new PayloadEncryption(payloadKeys), queues);
	}

}
