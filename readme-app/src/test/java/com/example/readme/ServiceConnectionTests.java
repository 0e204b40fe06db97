package com.example.readme;

import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@SpringBootTest(properties = "echomq.devservices.enabled=false")
@EnabledIf(value = "dockerAvailable", disabledReason = "no Docker engine answers here; this test needs one")
class ServiceConnectionTests {

	// Boot reads the container's host and port into spring.data.redis.* connection
	// details
	@ServiceConnection(name = "redis")
	static GenericContainer<?> valkey = new GenericContainer<>(DockerImageName.parse("valkey/valkey:8"))
		.withExposedPorts(6379);

	@Autowired
	Signups signups;

	@Autowired
	WelcomeEmails welcomeEmails;

	static boolean dockerAvailable() {
		return DockerClientFactory.instance().isDockerAvailable();
	}

	@BeforeAll
	static void startValkey() {
		valkey.start();
	}

	@AfterAll
	static void stopValkey() {
		valkey.stop();
	}

	@Test
	void signUpSendsTheWelcomeEmailThroughTheContainer() {
		this.signups.signUp("grace@example.com", "Grace");
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(this.welcomeEmails.sent())
				.contains("grace@example.com: Welcome, Grace! (attempt 1)"));
	}

}
