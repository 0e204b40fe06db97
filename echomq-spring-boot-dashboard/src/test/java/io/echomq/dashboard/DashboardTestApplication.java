package io.echomq.dashboard;

import java.util.UUID;

import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.ServerFlavor;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The application the dashboard's tests serve: every auto-configuration of the class
 * path, on the server this JVM shares, with a key prefix of each test class's own.
 *
 * @author EchoMQ
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class DashboardTestApplication {

	static TestServer server() {
		return TestRedisServer.sharedPreferring(ServerFlavor.VALKEY);
	}

	static String unique(String name) {
		return name + "-" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
	}

	static void redis(DynamicPropertyRegistry registry) {
		TestServer server = server();
		registry.add("spring.data.redis.host", server::host);
		registry.add("spring.data.redis.port", server::port);
		registry.add("echomq.key-prefix", () -> unique("dash"));
		registry.add("echomq.maintenance.promote-interval", () -> "50ms");
		registry.add("echomq.maintenance.reap-interval", () -> "200ms");
		registry.add("echomq.listener.backoff.initial", () -> "0s");
		registry.add("echomq.listener.idle-wait", () -> "500ms");
		registry.add("echomq.shutdown.timeout", () -> "1s");
	}

}
