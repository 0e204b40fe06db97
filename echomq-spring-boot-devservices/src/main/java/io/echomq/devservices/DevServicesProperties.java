package io.echomq.devservices;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of EchoMQ's development server.
 *
 * @param enabled Whether to start a local server when no Redis answers where the
 * application is configured to find one on this machine. When unset, on except in an
 * application run from a packaged jar or war; true starts one there too.
 * @param skip When to skip starting a server.
 * @author EchoMQ
 * @since 0.1.0
 */
@ConfigurationProperties("echomq.devservices")
public record DevServicesProperties(@Nullable Boolean enabled, @DefaultValue Skip skip) {

	/**
	 * When to skip starting a development server.
	 *
	 * @param inTests Whether to skip starting a server when the application runs in a
	 * test (a JUnit or Spring Boot test runner on the stack).
	 * @author EchoMQ
	 * @since 0.1.0
	 */
	public record Skip(@DefaultValue("true") boolean inTests) {

	}

}
