package io.echomq.events;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.echomq.core.Keyspace;
import io.echomq.core.internal.KeyType;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A second JVM for the event stream tests: connects to the server the test names, listens
 * to a queue's events as listener {@code id}, prints {@code READY} once it listens, one
 * {@code EVENT <sequence> <type> <job id>} line per event and one {@code GAP <missed>}
 * line per gap, and stops at the first line on standard input.
 *
 * @author EchoMQ
 */
public final class EventListenerProcess {

	private EventListenerProcess() {
	}

	/**
	 * Listen.
	 * @param args {@code standalone host:port}, the queue, the listener id
	 * @throws Exception on any failure (the test reads the output)
	 */
	public static void main(String[] args) throws Exception {
		String[] hostPort = args[1].split(":");
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(hostPort[0], Integer.parseInt(hostPort[1])));
		factory.afterPropertiesSet();
		factory.start();
		String queue = args[2];
		String id = args[3];
		JobEventStreamListener listener = new JobEventStreamListener() {

			@Override
			public String queue() {
				return queue;
			}

			@Override
			public String id() {
				return id;
			}

			@Override
			public void onEvent(JobEvent event) {
				print("EVENT " + event.sequence() + " " + event.type() + " " + event.id());
			}

			@Override
			public void onGap(JobEventGap gap) {
				print("GAP " + gap.missed());
			}

		};
		JobEventStreamContainer container = new JobEventStreamContainer(new StringRedisTemplate(factory),
				(name) -> Keyspace.defaults().queueKey(name, KeyType.EVENTS.suffix()), List.of(listener),
				JobEventStreamCounters.NONE);
		try {
			container.start();
			print("READY");
			new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
			container.stop();
			print("STOPPED");
		}
		finally {
			factory.destroy();
		}
	}

	private static synchronized void print(String line) {
		System.out.println(line);
		System.out.flush();
	}

}
