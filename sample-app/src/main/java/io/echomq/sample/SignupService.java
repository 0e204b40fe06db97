package io.echomq.sample;

import java.time.Duration;

import io.echomq.EchoMqOperations;
import io.echomq.core.AwaitTimeoutException;
import io.echomq.core.EnqueueOptions;
import io.echomq.core.JobId;
import io.echomq.flow.ChildFailure;
import io.echomq.flow.FlowJob;
import io.echomq.flow.FlowSpec;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Service;

/**
 * Registers users and hands the slow work to EchoMQ: a welcome email now, a CRM sync and
 * a tips email a little later, as the children of a "welcome done" job that runs once all
 * three have finished (a flow), and a note to the team, at most one per window however
 * many sign-ups come in (a throttled unique job).
 *
 * @author EchoMQ
 */
@Service
public class SignupService {

	static final String WELCOME_QUEUE = "welcome-email";

	static final String CRM_QUEUE = "crm-sync";

	static final String TIPS_QUEUE = "onboarding-tips";

	static final String DIGEST_QUEUE = "team-digest";

	static final String DONE_QUEUE = "welcome-done";

	static final String DIGEST_KEY = "new-signups";

	private final EchoMqOperations echoMq;

	private final Duration tipsDelay;

	private final EnqueueOptions digest;

	public SignupService(EchoMqOperations echoMq, SampleProperties properties) {
		this.echoMq = echoMq;
		this.tipsDelay = properties.tipsDelay();
		this.digest = EnqueueOptions.defaults().withThrottle(DIGEST_KEY, properties.digestWindow());
	}

	/**
	 * Sign a user up.
	 * @param signup the user
	 * @return the flow: the "welcome done" job, and its children the welcome email, the
	 * CRM sync and the tips email, in that order
	 */
	public FlowJob signUp(Signup signup) {
		WelcomeEmail welcome = new WelcomeEmail(signup.email(), signup.name());
		// one fair lane per company: a company signing up thousands of users at once
		// cannot hold back the CRM sync of the others, and
		// echomq.queues.crm-sync.lanes.max-active=1 syncs one contact per company at a
		// time across every node
		FlowSpec crm = FlowSpec.job(CRM_QUEUE, new CrmContact(signup.email(), signup.name()))
			.options(EnqueueOptions.defaults().withLane(companyLane(signup.email())));
		// a CRM sync that runs out of attempts does not hold back the welcome
		FlowJob flow = this.echoMq.flow(FlowSpec.job(DONE_QUEUE, welcome)
			.child(FlowSpec.job(WELCOME_QUEUE, welcome))
			.child(crm, ChildFailure.IGNORE)
			.child(FlowSpec.job(TIPS_QUEUE, welcome).options(EnqueueOptions.delayed(this.tipsDelay))));
		// the first sign-up of a window makes the job; the others find it
		// (result.duplicate())
		this.echoMq.enqueueUnique(DIGEST_QUEUE, signup.name(), this.digest);
		return flow;
	}

	/**
	 * Wait a little for the welcome email's result, on whichever node sends it.
	 * @param welcome the welcome-email job
	 * @param timeout how long to wait
	 * @return the result, or {@code null} when it did not come in time (the email is
	 * still sent: the job is not affected)
	 */
	public @Nullable String welcomeResult(JobId welcome, Duration timeout) {
		try {
			return this.echoMq.await(WELCOME_QUEUE, welcome, String.class, timeout);
		}
		catch (AwaitTimeoutException ex) {
			return null;
		}
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
