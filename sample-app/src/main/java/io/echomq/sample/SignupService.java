package io.echomq.sample;

import java.time.Duration;
import java.util.List;

import io.echomq.EchoMQTemplate;
import io.echomq.EnqueueOptions;
import io.echomq.core.JobId;

import org.springframework.stereotype.Service;

/**
 * Registers users and hands the slow work to EchoMQ: a welcome email now, a CRM sync,
 * and a tips email a little later.
 *
 * @author EchoMQ
 */
@Service
public class SignupService {

	static final String WELCOME_QUEUE = "welcome-email";

	static final String CRM_QUEUE = "crm-sync";

	static final String TIPS_QUEUE = "onboarding-tips";

	private final EchoMQTemplate echoMq;

	private final Duration tipsDelay;

	public SignupService(EchoMQTemplate echoMq, SampleProperties properties) {
		this.echoMq = echoMq;
		this.tipsDelay = properties.tipsDelay();
	}

	public List<JobId> signUp(Signup signup) {
		JobId welcome = this.echoMq.enqueue(WELCOME_QUEUE, new WelcomeEmail(signup.email(), signup.name()));
		JobId crm = this.echoMq.enqueue(CRM_QUEUE, new CrmContact(signup.email(), signup.name()));
		JobId tips = this.echoMq.enqueue(TIPS_QUEUE, new WelcomeEmail(signup.email(), signup.name()),
				EnqueueOptions.delayed(this.tipsDelay));
		return List.of(welcome, crm, tips);
	}

}
