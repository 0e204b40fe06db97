package io.echomq.autoconfigure;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.echomq.EchoMqTemplate;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.listener.ListenerSettings;
import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.ServerFlavor;
import io.echomq.test.server.ServerOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.awaitility.Awaitility.await;

/**
 * EchoMQ over TLS as a user configures it: {@code rediss://} and Boot's
 * {@code spring.data.redis.ssl.bundle} naming a PEM SSL bundle, against Valkey with
 * {@code tls-port}, its certificates made by a CA generated for this test with
 * {@code openssl}. One server checks client certificates ({@code tls-auth-clients yes}):
 * the application presents one from its bundle, and one without is refused; the other
 * only encrypts, and the bundle holds just the CA.
 *
 * @author EchoMQ
 */
class EchoMqTlsTests {

	@TempDir
	static Path certs;

	private static TestServer mutual;

	private static int mutualTlsPort;

	private static TestServer serverOnly;

	private static int serverOnlyTlsPort;

	@BeforeAll
	static void start() throws Exception {
		openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=EchoMQ test CA", "-keyout",
				"ca.key", "-out", "ca.crt");
		Files.writeString(certs.resolve("san.ext"), "subjectAltName=DNS:localhost,IP:127.0.0.1\n");
		for (String name : List.of("server", "client")) {
			openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=" + name, "-keyout", name + ".key", "-out",
					name + ".csr");
			openssl("x509", "-req", "-in", name + ".csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
					"-days", "1", "-extfile", "san.ext", "-out", name + ".crt");
		}
		mutualTlsPort = freePort();
		mutual = TestRedisServer.startOwned(ServerFlavor.VALKEY, tls(mutualTlsPort, "yes"));
		serverOnlyTlsPort = freePort();
		serverOnly = TestRedisServer.startOwned(ServerFlavor.VALKEY, tls(serverOnlyTlsPort, "no"));
	}

	@AfterAll
	static void stop() throws Exception {
		for (TestServer server : new TestServer[] { mutual, serverOnly }) {
			if (server != null) {
				server.close();
			}
		}
	}

	@Test
	void applicationWithAClientCertificateShouldEnqueueAndConsumeOverTls() {
		runner(mutual, mutualTlsPort)
			.withPropertyValues("spring.ssl.bundle.pem.redis.keystore.certificate=file:" + file("client.crt"),
					"spring.ssl.bundle.pem.redis.keystore.private-key=file:" + file("client.key"))
			.run(EchoMqTlsTests::enqueueAndConsume);
	}

	@Test
	void applicationWithoutAClientCertificateShouldBeRefusedWhenTheServerWantsOne() {
		runner(mutual, mutualTlsPort).run((context) -> {
			EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
			assertThatException().isThrownBy(() -> template.enqueue(ObservabilityTestSupport.unique("tls"), "x"));
		});
	}

	@Test
	void applicationTrustingThePrivateCaShouldEnqueueAndConsumeOverTls() {
		runner(serverOnly, serverOnlyTlsPort).run(EchoMqTlsTests::enqueueAndConsume);
	}

	private static void enqueueAndConsume(org.springframework.context.ApplicationContext context) {
		String queue = ObservabilityTestSupport.unique("tls");
		List<String> handled = new CopyOnWriteArrayList<>();
		context.getBean(EchoJobListenerRegistry.class)
			.register(queue, (job, jobContext) -> handled.add(job.payload()), ListenerSettings.builder().build());
		context.getBean(EchoMqTemplate.class).enqueue(queue, "over tls");
		await().atMost(Duration.ofSeconds(15)).until(() -> handled.contains("\"over tls\""));
	}

	private static ApplicationContextRunner runner(TestServer server, int tlsPort) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class, DataRedisAutoConfiguration.class,
					JacksonAutoConfiguration.class, EchoMqAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.url=rediss://" + server.host() + ":" + tlsPort,
					"spring.data.redis.ssl.bundle=redis", "spring.data.redis.timeout=5s",
					"spring.ssl.bundle.pem.redis.truststore.certificate=file:" + file("ca.crt"),
					"echomq.key-prefix=" + ObservabilityTestSupport.unique("tls"), "echomq.shutdown.timeout=1s",
					"echomq.listener.idle-wait=500ms");
	}

	private static ServerOptions tls(int tlsPort, String authClients) {
		return ServerOptions.builder()
			.extraArgs("--tls-port", String.valueOf(tlsPort), "--tls-cert-file", file("server.crt"), "--tls-key-file",
					file("server.key"), "--tls-ca-cert-file", file("ca.crt"), "--tls-auth-clients", authClients)
			.build();
	}

	private static String file(String name) {
		return certs.resolve(name).toAbsolutePath().toString();
	}

	private static void openssl(String... args) throws IOException, InterruptedException {
		List<String> command = new java.util.ArrayList<>(List.of("openssl"));
		command.addAll(List.of(args));
		Process process = new ProcessBuilder(command).directory(certs.toFile())
			.redirectErrorStream(true)
			.redirectOutput(certs.resolve("openssl.log").toFile())
			.start();
		assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
		assertThat(process.exitValue()).as("%s: %s", command, Files.readString(certs.resolve("openssl.log"))).isZero();
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
