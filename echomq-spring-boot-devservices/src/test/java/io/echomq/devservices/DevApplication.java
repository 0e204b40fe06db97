package io.echomq.devservices;

import java.io.IOException;
import java.time.Duration;

import io.echomq.test.ChildJvm;
import io.echomq.test.server.RespClient;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * An application run in a child JVM by {@link DevApplicationTests}, as a user runs theirs
 * in development: it prints the Redis URL it ended up with, stays up (Spring Boot's
 * {@code spring.main.keep-alive}) until it is stopped or its standard input closes (the
 * test JVM is gone), and pings the server as its context closes.
 *
 * @author EchoMQ
 */
@Configuration(proxyBeanMethods = false)
public class DevApplication {

	@Bean
	ApplicationRunner printRedisUrl(Environment environment) {
		return (arguments) -> {
			System.out.println("REDIS_URL=" + environment.getProperty("spring.data.redis.url"));
			System.out.flush();
		};
	}

	@Bean
	DisposableBean pingOnClose(Environment environment) {
		return () -> {
			int port = environment.getRequiredProperty("spring.data.redis.port", Integer.class);
			try (RespClient client = RespClient.connect("127.0.0.1", port, Duration.ofSeconds(1))) {
				System.out.println("PING_ON_CLOSE=" + client.command("PING"));
			}
			catch (IOException ex) {
				System.out.println("PING_ON_CLOSE=" + ex);
			}
			System.out.flush();
		};
	}

	public static void main(String[] args) {
		ChildJvm.onParentExit(() -> System.exit(1));
		SpringApplication.run(DevApplication.class, args);
	}

}
