package io.echomq.sample;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

import io.echomq.annotation.EchoJob;
import io.echomq.listener.JobContext;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.stereotype.Component;

/**
 * The sample's job handlers.
 *
 * @author EchoMQ
 */
@Component
public class OnboardingJobs {

	private static final Log logger = LogFactory.getLog(OnboardingJobs.class);

	private final Mailer mailer;

	private final double crmFailureRate;

	private final AtomicInteger crmSynced = new AtomicInteger();

	private final Set<String> crmLanes = ConcurrentHashMap.newKeySet();

	private final List<String> welcomed = new CopyOnWriteArrayList<>();

	public OnboardingJobs(Mailer mailer, SampleProperties properties) {
		this.mailer = mailer;
		this.crmFailureRate = properties.crmFailureRate();
	}

	/**
	 * Send the welcome email.
	 * @param email the email
	 * @param context the job's context
	 * @return the job's result, which the sign-up endpoint may wait for
	 */
	@EchoJob(queue = SignupService.WELCOME_QUEUE)
	public String sendWelcome(WelcomeEmail email, JobContext context) {
		this.mailer.send(email.email(), "Welcome, " + email.name() + "!");
		logger.info("welcome-email " + context.id() + " done on attempt " + context.attempt());
		return "sent to " + email.email();
	}

	@EchoJob(queue = SignupService.TIPS_QUEUE)
	public void sendTips(WelcomeEmail email) {
		this.mailer.send(email.email(), "Three tips for your first week");
	}

	@EchoJob(queue = SignupService.DIGEST_QUEUE)
	public void notifyTeam(String firstName) {
		this.mailer.send("team@example.com", "New sign-ups, starting with " + firstName);
	}

	/**
	 * Talks to a flaky CRM: fails at the configured rate, so some jobs are retried with
	 * backoff and a few run out of attempts and are dead-lettered. Each job runs in its
	 * company's fair lane (its row's {@code lane} field, set by {@link SignupService}).
	 * @param contact the contact to sync
	 * @param context the job's context
	 */
	@EchoJob(queue = SignupService.CRM_QUEUE, maxAttempts = "3", backoffInitial = "500ms")
	public void syncCrm(CrmContact contact, JobContext context) {
		if (ThreadLocalRandom.current().nextDouble() < this.crmFailureRate) {
			throw new IllegalStateException("CRM unavailable (attempt " + context.attempt() + ")");
		}
		String lane = context.fields().get("lane");
		this.crmSynced.incrementAndGet();
		if (lane != null) {
			this.crmLanes.add(lane);
		}
		logger.info("crm-sync " + contact.email() + " done in lane " + lane + " on attempt " + context.attempt());
	}

	/**
	 * Runs once the sign-up's three jobs have finished (a flow, see
	 * {@link SignupService}): tells the user they are all set, with how each job ended.
	 * @param email the user
	 * @param context the job's context, which lists its children and how each finished
	 */
	@EchoJob(queue = SignupService.DONE_QUEUE)
	public void welcomeDone(WelcomeEmail email, JobContext context) {
		List<String> outcomes = context.children()
			.stream()
			.map((child) -> child.queue() + " " + child.outcome())
			.toList();
		this.mailer.send(email.email(), "You are all set, " + email.name());
		this.welcomed.add(email.email() + " " + outcomes);
		logger.info("welcome-done " + context.id() + " for " + email.email() + " after " + outcomes);
	}

	/**
	 * Return what each "welcome done" job saw: the email and how each child finished.
	 * @return one line per run
	 */
	public List<String> welcomed() {
		return List.copyOf(this.welcomed);
	}

	public int crmSynced() {
		return this.crmSynced.get();
	}

	/**
	 * Return the lanes CRM syncs ran in.
	 * @return the lane keys
	 */
	public Set<String> crmLanes() {
		return Set.copyOf(this.crmLanes);
	}

}
