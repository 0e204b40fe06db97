package com.example.docs;

import com.example.readme.ReadmeApplication;
import com.example.readme.Signups;
import com.example.readme.WelcomeEmails;
import io.echomq.test.context.AutoConfigureEchoMqServer;
import io.echomq.test.queues.DrainResult;
import io.echomq.test.queues.EchoMqTestQueues;
import io.echomq.test.queues.ResetEchoMqQueues;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static io.echomq.test.queues.EchoMqAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

// listeners stay stopped: the test runs the queue itself; a key prefix of its own keeps
// other test contexts' listeners on the shared server away from its jobs
@SpringBootTest(classes = ReadmeApplication.class,
		properties = { "echomq.listener.auto-startup=false", "echomq.key-prefix=welcome-tests" })
@AutoConfigureEchoMqServer
@ResetEchoMqQueues // each test starts from empty queues
class WelcomeEmailJobsTests {

	@Autowired
	Signups signups;

	@Autowired
	WelcomeEmails welcomeEmails;

	@Autowired
	EchoMqTestQueues queues;

	@Test
	void signUpEnqueuesTheWelcomeEmailAndTheListenerSendsIt() {
		this.signups.signUp("ada@example.com", "Ada");

		assertThat(this.queues).queue("welcome-email")
			.hasPending(1)
			.hasEnqueued("{\"email\":\"ada@example.com\",\"name\":\"Ada\"}");

		// the @EchoJob method runs here, on the test thread, through the real scripts
		DrainResult drained = this.queues.drain("welcome-email");

		assertThat(drained.completed()).isEqualTo(1);
		assertThat(this.welcomeEmails.sent()).containsExactly("ada@example.com: Welcome, Ada! (attempt 1)");
		assertThat(this.queues).queue("welcome-email").isDrained().hasDead(0);
	}

}
