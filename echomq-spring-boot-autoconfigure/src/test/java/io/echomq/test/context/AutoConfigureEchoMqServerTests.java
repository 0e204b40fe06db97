package io.echomq.test.context;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.echomq.EchoMqTemplate;
import io.echomq.annotation.EchoJob;
import io.echomq.core.JobId;
import io.echomq.listener.JobContext;
import io.echomq.test.TestServer;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A user's {@code @SpringBootTest} with {@link AutoConfigureEchoMqServer}: the
 * application is configured for a production Redis (a cluster behind credentials) that
 * does not exist here, and still enqueues and handles jobs on the test server.
 *
 * @author EchoMQ
 */
@SpringBootTest(classes = AutoConfigureEchoMqServerTests.Application.class,
		properties = { "spring.data.redis.url=redis://app:prod-secret@127.0.0.1:1",
				"spring.data.redis.cluster.nodes=127.0.0.1:2,127.0.0.1:3", "spring.data.redis.password=prod-secret",
				"echomq.key-prefix=emq-autoconfigure-server-tests" })
@AutoConfigureEchoMqServer
class AutoConfigureEchoMqServerTests {

	@Autowired
	private EchoMqTemplate echoMq;

	@Autowired
	private Greetings greetings;

	@Autowired
	private TestServer server;

	@Autowired
	private RedisConnectionFactory connectionFactory;

	@Autowired
	private Environment environment;

	@Test
	void jobEnqueuedByTheTestIsHandledByTheApplicationsListener() throws InterruptedException {
		JobId id = this.echoMq.enqueue("greetings", new Greeting("Ada"));
		Handled handled = this.greetings.handled.poll(20, TimeUnit.SECONDS);
		assertThat(handled).isEqualTo(new Handled(id, "Ada"));
	}

	@Test
	void contextConnectsToTheTestServerAlone() {
		assertThat(this.connectionFactory).isInstanceOf(LettuceConnectionFactory.class);
		LettuceConnectionFactory lettuce = (LettuceConnectionFactory) this.connectionFactory;
		assertThat(lettuce.getClusterConfiguration()).isNull();
		assertThat(lettuce.getStandaloneConfiguration().getHostName()).isEqualTo(this.server.host());
		assertThat(lettuce.getStandaloneConfiguration().getPort()).isEqualTo(this.server.port());
		assertThat(lettuce.getStandaloneConfiguration().getPassword().isPresent()).isFalse();
		assertThat(lettuce.getConnection().ping()).isEqualTo("PONG");
	}

	@Test
	void propertiesNameTheTestServer() {
		assertThat(this.environment.getProperty("spring.data.redis.host")).isEqualTo(this.server.host());
		assertThat(this.environment.getProperty("spring.data.redis.port", Integer.class)).isEqualTo(this.server.port());
		assertThat(this.environment.getProperty("spring.data.redis.url")).isEqualTo(this.server.url());
	}

	@Test
	void sharedServerIsNotClosedByATest() {
		this.server.close();
		assertThat(this.connectionFactory.getConnection().ping()).isEqualTo("PONG");
	}

	record Greeting(String name) {
	}

	record Handled(JobId id, String name) {
	}

	static class Greetings {

		final BlockingQueue<Handled> handled = new LinkedBlockingQueue<>();

		@EchoJob(queue = "greetings")
		void greet(Greeting greeting, JobContext context) {
			this.handled.add(new Handled(context.id(), greeting.name()));
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@Import(Greetings.class)
	static class Application {

	}

}
