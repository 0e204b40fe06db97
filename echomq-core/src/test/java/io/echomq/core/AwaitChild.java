package io.echomq.core;

import java.time.Duration;

import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.ScriptExecutor;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The other node of {@link AwaitTests}: in a JVM of its own, claims the one job of each
 * queue it is given and completes it with a result, dead-letters it, or cancels it;
 * prints {@code DONE <mode> <epoch ms>} right after each transition.
 *
 * @author EchoMQ
 */
public final class AwaitChild {

	private AwaitChild() {
	}

	/**
	 * Run the transitions.
	 * @param args {@code standalone host:port} or {@code cluster host:port,...}, then
	 * pairs of a queue and {@code complete}, {@code dead} or {@code cancel}
	 */
	public static void main(String[] args) {
		LettuceConnectionFactory factory = EngineServer.Target.connect(args);
		try {
			Engine jobs = new Engine(new ScriptExecutor(new StringRedisTemplate(factory)), Keyspace.defaults());
			for (int i = 2; i + 1 < args.length; i += 2) {
				String queue = args[i];
				String mode = args[i + 1];
				ClaimedJob job = jobs.claims().claim(queue, Duration.ofSeconds(30), 1).get(0);
				TransitionResult result = switch (mode) {
					case "complete" ->
						jobs.outcomes().complete(queue, job.id(), job.token(), null, "\"from the child\"");
					case "dead" -> jobs.outcomes().deadLetter(queue, job.id(), job.token(), "child says no");
					default -> {
						jobs.admin().cancel(queue, job.id());
						yield jobs.outcomes().complete(queue, job.id(), job.token());
					}
				};
				System.out.println("DONE " + mode + " " + System.currentTimeMillis() + " " + result);
				System.out.flush();
			}
		}
		finally {
			factory.destroy();
		}
	}

}
