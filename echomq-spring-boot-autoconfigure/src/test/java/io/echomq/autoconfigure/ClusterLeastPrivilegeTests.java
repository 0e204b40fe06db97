package io.echomq.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import io.echomq.EchoMqTemplate;
import io.echomq.annotation.EchoJob;
import io.echomq.core.JobId;
import io.echomq.listener.JobContext;
import io.echomq.test.TestRedisServer;
import io.echomq.test.server.LocalCluster;
import io.echomq.test.server.RedisServerProcess;
import io.echomq.test.server.RespClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.RedisConnectionFailureException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The least-privilege ACL user of docs/security.md on a cluster: with the cluster line
 * (the single-server line and the topology reads a cluster client makes) an application
 * enqueues to a partitioned queue, consumes, stores and awaits results, and no node's
 * {@code ACL LOG} holds a denial but the eviction check's {@code CONFIG GET}; with the
 * single-server line alone the application says which command to grant, once.
 *
 * @author EchoMQ
 */
@ExtendWith(OutputCaptureExtension.class)
class ClusterLeastPrivilegeTests {

	/** What a cluster client reads besides the single-server line (docs/security.md). */
	static final String CLUSTER_RULES = "+cluster|nodes +cluster|myid +info +client|setname";

	private static final int JOBS = 60;

	@Test
	void theDocumentedClusterLineRunsAPartitionedQueueWithoutADenial() throws Exception {
		LocalCluster cluster = TestRedisServer.sharedCluster();
		String prefix = "acl" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
		String user = "echomq-" + prefix;
		createUser(cluster, user, prefix, documentedLine() + " " + CLUSTER_RULES);
		try (ConfigurableApplicationContext context = start(cluster, user, prefix)) {
			EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
			List<JobId> ids = new ArrayList<>();
			for (int i = 0; i < JOBS; i++) {
				ids.add(template.enqueue("acl", "job-" + i));
			}
			assertThat(template.await("acl", ids.get(0), String.class, Duration.ofSeconds(30))).isEqualTo("done job-0");
			Doubler doubler = context.getBean(Doubler.class);
			await().atMost(Duration.ofSeconds(30)).until(() -> doubler.ran.size() == JOBS);
			assertThat(template.result("acl", ids.get(JOBS - 1), String.class)).isEqualTo("done job-" + (JOBS - 1));
		}
		finally {
			assertThat(denials(cluster, user)).as("ACL LOG denials of " + user).isEmpty();
			deleteUser(cluster, user);
		}
	}

	@Test
	void docsPrintTheClusterLine() throws IOException {
		assertThat(Files.readString(Path.of("../docs/security.md"))).contains(documentedLine() + " " + CLUSTER_RULES);
	}

	@Test
	void theSingleServerLineOnAClusterSaysWhatToGrantOnce(CapturedOutput output) throws Exception {
		LocalCluster cluster = TestRedisServer.sharedCluster();
		String prefix = "acl" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
		String user = "echomq-" + prefix;
		createUser(cluster, user, prefix, documentedLine());
		try (ConfigurableApplicationContext context = start(cluster, user, prefix)) {
			EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
			for (int i = 0; i < 3; i++) {
				assertThatExceptionOfType(RedisConnectionFailureException.class)
					.isThrownBy(() -> template.enqueue("acl", "x"))
					.withMessageContaining("Redis refused the command 'cluster")
					.withMessageContaining("+cluster|nodes +cluster|myid +info +client|setname");
			}
			assertThat(output.getAll()
				.lines()
				.filter((line) -> line.contains(" ERROR ") && line.contains("ScriptErrors")
						&& line.contains("Redis refused the command 'cluster")))
				.as("times the advice is logged")
				.hasSize(1);
		}
		finally {
			deleteUser(cluster, user);
		}
	}

	private static ConfigurableApplicationContext start(LocalCluster cluster, String user, String prefix) {
		return new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.run("--spring.data.redis.cluster.nodes=" + String.join(",", cluster.seedNodes()),
					"--spring.data.redis.username=" + user, "--spring.data.redis.password=secret",
					"--echomq.key-prefix=" + prefix, "--echomq.queues.acl.partitions=3",
					"--management.health.redis.enabled=false");
	}

	static String documentedLine() throws IOException {
		try (InputStream in = ClusterLeastPrivilegeTests.class.getResourceAsStream("/io/echomq/core/echomq.acl")) {
			assertThat(in).as("io/echomq/core/echomq.acl").isNotNull();
			return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
		}
	}

	private static void createUser(LocalCluster cluster, String user, String prefix, String line) throws IOException {
		String rules = line.replace(">CHANGE-ME", ">secret")
			.replace("~emq:*", "~" + prefix + ":*")
			.replace("&emq:*", "&" + prefix + ":*");
		assertThat(rules).startsWith("user echomq ");
		List<String> command = new ArrayList<>(List.of("ACL", "SETUSER", user));
		command.addAll(List.of(rules.substring("user echomq ".length()).split(" ")));
		for (RedisServerProcess node : cluster.nodes()) {
			try (RespClient client = node.openClient()) {
				client.command(command.toArray(String[]::new));
				client.command("ACL", "LOG", "RESET");
			}
		}
	}

	private static void deleteUser(LocalCluster cluster, String user) throws IOException {
		for (RedisServerProcess node : cluster.nodes()) {
			try (RespClient client = node.openClient()) {
				client.command("ACL", "DELUSER", user);
			}
		}
	}

	/** The denials of the user in every node's ACL LOG, but the eviction check's. */
	private static List<String> denials(LocalCluster cluster, String user) throws IOException {
		List<String> denials = new ArrayList<>();
		for (RedisServerProcess node : cluster.nodes()) {
			try (RespClient client = node.openClient()) {
				Object log = client.command("ACL", "LOG");
				if (log instanceof List<?> entries) {
					for (Object entry : entries) {
						String text = String.valueOf(entry);
						// the eviction check's CONFIG GET (Redis 6.2 logs the command
						// alone)
						boolean evictionCheck = text.contains("config|get") || text.contains("object, config,");
						if (text.contains(user) && !evictionCheck) {
							denials.add(node.port() + ": " + text);
						}
					}
				}
			}
		}
		return denials;
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class Application {

		@Bean
		Doubler doubler() {
			return new Doubler();
		}

	}

	static class Doubler {

		final Set<String> ran = ConcurrentHashMap.newKeySet();

		@EchoJob(queue = "acl")
		String handle(String payload, JobContext context) {
			this.ran.add(payload);
			return "done " + payload;
		}

	}

}
