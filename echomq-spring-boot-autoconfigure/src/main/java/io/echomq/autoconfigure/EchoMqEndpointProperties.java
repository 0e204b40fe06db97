package io.echomq.autoconfigure;

import java.util.Set;

import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The {@code echomq} endpoint, under {@code management.endpoint.echomq}.
 *
 * @param showValues When to show job payloads unsanitized.
 * @param roles Roles allowed to see unsanitized payloads when show-values is
 * when-authorized; when empty, every authenticated user is.
 * @author EchoMQ
 * @since 0.1.0
 */
@ConfigurationProperties("management.endpoint.echomq")
public record EchoMqEndpointProperties(@DefaultValue("never") Show showValues, Set<String> roles) {

	/**
	 * Create the properties.
	 * @param showValues When to show payloads.
	 * @param roles The roles.
	 */
	public EchoMqEndpointProperties {
		roles = (roles != null) ? Set.copyOf(roles) : Set.of();
	}

}
