package com.example.docs;

import com.example.readme.WelcomeEmail;
// tag::imports[]
import io.echomq.EchoMqOperations;
import io.echomq.annotation.EchoJob;
import io.echomq.flow.ChildFailure;
import io.echomq.flow.FlowChild;
import io.echomq.flow.FlowJob;
import io.echomq.flow.FlowSpec;
import io.echomq.listener.JobContext;
// end::imports[]
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

@Component
class SignupFlows {

	private static final Logger log = LoggerFactory.getLogger(SignupFlows.class);

	private final EchoMqOperations template;

	SignupFlows(EchoMqOperations template) {
		this.template = template;
	}

	// tag::enqueue[]
	FlowJob signUp(String email) {
		// "welcome-done" runs once both children have finished; a dead avatar job does
		// not stop it
		return this.template.flow(FlowSpec.job("welcome-done", email)
			.child(FlowSpec.job("welcome-email", new WelcomeEmail(email, email)))
			.child(FlowSpec.job("avatars", email), ChildFailure.IGNORE));
	}
	// end::enqueue[]

	// tag::parent[]
	@EchoJob(queue = "welcome-done")
	void welcomeDone(String email, JobContext context) {
		for (FlowChild child : context.children()) {
			// outcome: completed, failed (dead, ignored) or removed
			String result = this.template.result(child.queue(), child.id(), String.class);
			log.info("{} for {}: {} of {} {}, result {}", context.id(), email, child.outcome(), child.queue(),
					child.id(), result);
		}
	}
	// end::parent[]

}
