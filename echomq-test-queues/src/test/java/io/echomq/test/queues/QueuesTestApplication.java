package io.echomq.test.queues;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.echomq.EchoMqOperations;
import io.echomq.annotation.EchoJob;
import io.echomq.annotation.EchoSchedule;
import io.echomq.listener.JobContext;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

/**
 * An application as a user writes it: {@code @EchoJob} listeners, one that enqueues, and
 * a schedule.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(QueuesTestApplication.Mailer.class)
class QueuesTestApplication {

	record Email(String to) {
	}

	static class Mailer {

		final List<String> sent = new CopyOnWriteArrayList<>();

		final List<String> threads = new CopyOnWriteArrayList<>();

		final List<Integer> counted = new CopyOnWriteArrayList<>();

		final List<String> reports = new CopyOnWriteArrayList<>();

		private final EchoMqOperations echoMq;

		Mailer(EchoMqOperations echoMq) {
			this.echoMq = echoMq;
		}

		@EchoJob(queue = "emails")
		void send(Email email, JobContext context) {
			this.threads.add(Thread.currentThread().getName());
			this.sent.add(email.to() + " #" + context.attempt());
		}

		@EchoJob(queue = "bounces")
		void bounce(Email email) {
			throw new IllegalStateException("mailbox of " + email.to() + " is full");
		}

		@EchoJob(queue = "countdown")
		void countDown(Integer n) {
			this.counted.add(n);
			if (n > 0) {
				this.echoMq.enqueue("countdown", n - 1);
			}
		}

		@EchoJob(queue = "reports")
		void report(JobContext context) {
			this.reports.add(context.id().toString());
		}

		@EchoSchedule(queue = "reports", name = "yearly", cron = "0 0 3 1 1 *")
		void yearly() {
		}

	}

}
