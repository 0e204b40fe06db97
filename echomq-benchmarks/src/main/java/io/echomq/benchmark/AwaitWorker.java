package io.echomq.benchmark;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

import io.echomq.core.Keyspace;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.ScriptExecutor;
import io.echomq.listener.MethodJobHandler;
import io.echomq.support.JacksonPayloadConverter;
import io.echomq.test.ChildJvm;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The completing side of the {@code awaitjvm} figure, run in a child JVM: a listener
 * container at concurrency 1 whose handler method returns the wall-clock time of its
 * return ({@link Instant#now()}, microseconds since the epoch, as a string), which the
 * completion stores as the job's result. Prints {@code READY} once the container runs and
 * stops when its standard input yields a line or ends.
 * <p>
 * Arguments: host, port, queue.
 *
 * @author EchoMQ
 */
final class AwaitWorker {

	private AwaitWorker() {
	}

	/**
	 * The handler method's bean.
	 */
	static final class Stamp {

		String returnedAt() {
			return Long.toString(ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now()));
		}

	}

	public static void main(String[] args) throws Exception {
		ChildJvm.onParentExit(() -> System.exit(1));
		LettuceConnectionFactory connection = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(args[0], Integer.parseInt(args[1])));
		connection.afterPropertiesSet();
		connection.start();
		Engine jobs = new Engine(new ScriptExecutor(new StringRedisTemplate(connection)), Keyspace.defaults());
		Method method = Stamp.class.getDeclaredMethod("returnedAt");
		try (ListenerConsumers consumers = new ListenerConsumers(jobs)) {
			consumers.start(args[2], 1, MethodJobHandler.create(new Stamp(), method,
					new JacksonPayloadConverter(JsonMapper.builder().build())));
			System.out.println("READY");
			System.out.flush();
			new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
		}
		connection.destroy();
		System.exit(0);
	}

}
