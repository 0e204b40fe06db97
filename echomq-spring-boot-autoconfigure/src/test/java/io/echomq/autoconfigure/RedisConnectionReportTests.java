package io.echomq.autoconfigure;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.echomq.listener.ListenerTestSupport;
import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.ServerFlavor;
import io.echomq.test.server.ServerOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RedisConnectionReport}: the one line at start-up that names the Redis
 * EchoMQ works on.
 *
 * @author EchoMQ
 */
@ExtendWith(OutputCaptureExtension.class)
class RedisConnectionReportTests {

	@Test
	void startedApplicationNamesTheServerItUses(CapturedOutput output) {
		TestServer server = ListenerTestSupport.sharedServer();
		try (ConfigurableApplicationContext context = run("--spring.data.redis.host=" + server.host(),
				"--spring.data.redis.port=" + server.port())) {
			assertThat(context).isNotNull();
		}
		assertThat(output.getOut()).containsOnlyOnce("EchoMQ uses Redis standalone at " + server.host() + ":"
				+ server.port() + ", " + server.flavor().displayName() + " " + server.version());
	}

	@Test
	void redisAndTheEmbeddedRedisAreNamedWithTheirVersion(CapturedOutput output) {
		for (TestServer server : List.of(TestRedisServer.startOwned(ServerFlavor.REDIS),
				TestRedisServer.startEmbedded(ServerOptions.defaults()))) {
			try (server;
					ConfigurableApplicationContext context = run("--spring.data.redis.host=" + server.host(),
							"--spring.data.redis.port=" + server.port())) {
				assertThat(output.getOut()).contains("EchoMQ uses Redis standalone at " + server.host() + ":"
						+ server.port() + ", Redis " + server.version());
			}
		}
	}

	@Test
	void startedApplicationWithNoServerSaysWhereItLooked(CapturedOutput output) throws IOException {
		int port;
		try (ServerSocket socket = new ServerSocket(0)) {
			port = socket.getLocalPort();
		}
		try (ConfigurableApplicationContext context = run("--spring.data.redis.host=127.0.0.1",
				"--spring.data.redis.port=" + port)) {
			assertThat(context).isNotNull();
		}
		assertThat(output.getOut()).containsOnlyOnce("EchoMQ cannot reach Redis standalone at 127.0.0.1:" + port)
			.doesNotContain("EchoMQ uses Redis");
	}

	@Test
	void targetNamesTheModeAndWhereItConnects() {
		RedisStandaloneConfiguration standalone = new RedisStandaloneConfiguration("redis.example.com", 6380);
		standalone.setDatabase(2);
		assertThat(RedisConnectionReport.target(new LettuceConnectionFactory(standalone)))
			.isEqualTo("standalone at redis.example.com:6380, database 2");
		assertThat(RedisConnectionReport.target(
				new LettuceConnectionFactory(new RedisClusterConfiguration(List.of("10.0.0.1:7000", "10.0.0.2:7001")))))
			.isEqualTo("cluster, seeds 10.0.0.1:7000, 10.0.0.2:7001");
		assertThat(RedisConnectionReport
			.target(new LettuceConnectionFactory(new RedisSentinelConfiguration("orders", Set.of("10.0.0.5:26379")))))
			.isEqualTo("Sentinel, master 'orders' via 10.0.0.5:26379");
	}

	@Test
	void versionNamesTheServerOfTheHelloAnswer() {
		assertThat(RedisConnectionReport.version(Map.of("server", "valkey", "version", "8.0.1")))
			.isEqualTo("Valkey 8.0.1");
		assertThat(RedisConnectionReport.version(Map.of("server", "redis", "version", "6.2.11")))
			.isEqualTo("Redis 6.2.11");
		assertThat(RedisConnectionReport.version(Map.of())).isEqualTo("server version unknown");
	}

	private static ConfigurableApplicationContext run(String... args) {
		SpringApplication application = new SpringApplication(ReportApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		String[] all = new String[args.length + 2];
		System.arraycopy(args, 0, all, 0, args.length);
		all[args.length] = "--echomq.key-prefix=" + ListenerTestSupport.uniquePrefix();
		all[args.length + 1] = "--spring.main.banner-mode=off";
		return application.run(all);
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class,
			EchoMqAutoConfiguration.class })
	static class ReportApplication {

	}

}
