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
		// one fair lane per company: a company signing up thousands of users at once cannot hold back
		// the CRM sync of the others, and echomq.queues.crm-sync.lanes.max-active=1 syncs one contact per
		// company at a time across every node
		JobId crm = this.echoMq.enqueue(CRM_QUEUE, new CrmContact(signup.email(), signup.name()),
				EnqueueOptions.defaults().withLane(companyLane(signup.email())));
		JobId tips = this.echoMq.enqueue(TIPS_QUEUE, new WelcomeEmail(signup.email(), signup.name()),
				EnqueueOptions.delayed(this.tipsDelay));
		return List.of(welcome, crm, tips);
	}

	/**
	 * The lane key of an email's company: its domain, kept to the characters a lane key
	 * allows.
	 * @param email the email address
	 * @return the lane key
	 */
	static String companyLane(String email) {
		String domain = email.substring(email.lastIndexOf('@') + 1).toLowerCase(java.util.Locale.ROOT);
		String lane = domain.replaceAll("[^a-z0-9._-]", "-");
		if (lane.isEmpty()) {
			return "unknown";
		}
		return (lane.length() > 64) ? lane.substring(0, 64) : lane;
	}

}
