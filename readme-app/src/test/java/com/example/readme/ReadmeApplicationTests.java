package com.example.readme;

import java.time.Duration;

import io.echomq.EchoMqTemplate;
import io.echomq.test.context.AutoConfigureEchoMqServer;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The application's test, as the README's "Testing your application" writes one.
 *
 * @author EchoMQ
 */
@SpringBootTest
@AutoConfigureEchoMqServer
class ReadmeApplicationTests {

	@Autowired
	EchoMqTemplate echoMq;

	@Autowired
	ReadmeApplication.Greeter greeter;

	@Test
	void listenerReceivesEnqueuedJob() {
		this.echoMq.enqueue("greetings", "Ada");
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(this.greeter.greeted).contains("Ada"));
	}

}
