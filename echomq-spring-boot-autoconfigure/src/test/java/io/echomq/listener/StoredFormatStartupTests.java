package io.echomq.listener;

import io.echomq.EchoMqTemplate;
import io.echomq.annotation.EchoJob;
import io.echomq.core.Keyspace;
import io.echomq.core.UnsupportedFormatException;
import io.echomq.core.internal.KeyType;
import io.echomq.test.TestServer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * An application meets queues in a stored format as a user starts it: its listener does
 * not start on a queue in a format this release does not read (the start-up fails naming
 * both versions), its template refuses such a queue, and a queue it writes first is
 * recorded as format 1.
 *
 * @author EchoMQ
 */
class StoredFormatStartupTests {

	private static final TestServer server = ListenerTestSupport.sharedServer();

	private final String prefix = ListenerTestSupport.uniquePrefix();

	private final Keyspace keyspace = new Keyspace(this.prefix);

	private ApplicationContextRunner runner() {
		return ListenerTestSupport.runner(server, this.prefix);
	}

	@Test
	void applicationDoesNotStartListeningToAQueueInAFormatItDoesNotRead() {
		try (ListenerTestSupport.Probe probe = new ListenerTestSupport.Probe(server, this.prefix)) {
			probe.template().opsForHash().put(meta("reminders"), "format", "99");
			runner().withUserConfiguration(ReminderListener.class).run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOf(UnsupportedFormatException.class)
					.hasMessageContaining("Queue 'reminders'")
					.hasMessageContaining("format 99")
					.hasMessageContaining("reads format(s) [1]");
			});
			assertThat(probe.members("reminders", KeyType.ACTIVE)).isEmpty();
			assertThat(probe.template().opsForHash().get(meta("reminders"), "format")).isEqualTo("99");
		}
	}

	@Test
	void templateRecordsFormatOneOnANewQueueAndRefusesOneInAnotherFormat() {
		try (ListenerTestSupport.Probe probe = new ListenerTestSupport.Probe(server, this.prefix)) {
			probe.template().opsForHash().put(meta("newer"), "format", "2");
			runner().run((context) -> {
				EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
				template.enqueue("fresh", "x");
				assertThat(probe.template().opsForHash().get(meta("fresh"), "format")).isEqualTo("1");
				assertThatExceptionOfType(UnsupportedFormatException.class)
					.isThrownBy(() -> template.enqueue("newer", "x"))
					.withMessageContaining("Queue 'newer'")
					.withMessageContaining("format 2");
				assertThat(probe.members("newer", KeyType.PENDING)).isEmpty();
			});
		}
	}

	private String meta(String queue) {
		return this.keyspace.queueKey(queue, KeyType.META.suffix());
	}

	static class ReminderListener {

		@EchoJob(queue = "reminders")
		void handle(String payload) {
		}

	}

}
