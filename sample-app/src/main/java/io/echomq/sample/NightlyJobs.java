package io.echomq.sample;

import java.time.LocalDate;
import java.time.ZoneId;

import io.echomq.annotation.EchoJob;
import io.echomq.annotation.EchoSchedule;
import io.echomq.listener.JobContext;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.stereotype.Component;

/**
 * A nightly schedule: at 02:00 Paris time, one node of those running the sample enqueues
 * the digest of the day before, and a listener mails it.
 *
 * @author EchoMQ
 */
@Component
public class NightlyJobs {

	/** The digest queue. */
	public static final String DIGEST_QUEUE = "daily-digest";

	/** The schedule's name. */
	public static final String DIGEST_SCHEDULE = "nightly-digest";

	private static final Log logger = LogFactory.getLog(NightlyJobs.class);

	private static final ZoneId PARIS = ZoneId.of("Europe/Paris");

	private final Mailer mailer;

	public NightlyJobs(Mailer mailer) {
		this.mailer = mailer;
	}

	@EchoSchedule(queue = DIGEST_QUEUE, name = DIGEST_SCHEDULE, cron = "${sample.digest-cron:0 0 2 * * *}",
			zone = "Europe/Paris")
	public DailyDigest nightlyDigest() {
		return new DailyDigest(LocalDate.now(PARIS).minusDays(1));
	}

	@EchoJob(queue = DIGEST_QUEUE)
	public void sendDigest(DailyDigest digest, JobContext context) {
		this.mailer.send("team@example.com", "Sign-ups of " + digest.day());
		logger.info("daily-digest for " + digest.day() + " (fire time " + context.fields().get("fire_at") + ") done");
	}

}
