package com.example.readme;

import java.time.Duration;

import io.echomq.test.context.AutoConfigureEchoMqServer;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@SpringBootTest
@AutoConfigureEchoMqServer
class ReadmeApplicationTests {

	@Autowired
	Signups signups;

	@Autowired
	WelcomeEmails welcomeEmails;

	@Test
	void signUpSendsTheWelcomeEmail() {
		this.signups.signUp("ada@example.com", "Ada");
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(
					() -> assertThat(this.welcomeEmails.sent()).contains("ada@example.com: Welcome, Ada! (attempt 1)"));
	}

}
