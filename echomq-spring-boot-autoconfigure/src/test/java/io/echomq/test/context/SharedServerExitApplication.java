package io.echomq.test.context;

import io.echomq.annotation.EchoJob;
import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * What a test JVM does at its end, in a JVM of its own: an application context with a
 * listener, on the JVM's shared test server, still open (as the test framework's cached
 * contexts are) when {@code System.exit} is called. Run by {@link SharedServerExitTests};
 * prints the server's process id once the context runs.
 *
 * @author EchoMQ
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
@Import(SharedServerExitApplication.Listener.class)
public class SharedServerExitApplication {

	static final String READY = "SERVER PID ";

	public static void main(String[] args) {
		TestServer server = TestRedisServer.shared();
		SpringApplication application = new SpringApplication(SharedServerExitApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.run("--spring.data.redis.host=" + server.host(), "--spring.data.redis.port=" + server.port(),
				"--spring.main.banner-mode=off");
		System.out.println(READY + server.process().map((process) -> process.pid()).orElse(-1L));
		System.out.flush();
		System.exit(0);
	}

	static class Listener {

		@EchoJob(queue = "exit")
		void handle(String payload) {
		}

	}

}
