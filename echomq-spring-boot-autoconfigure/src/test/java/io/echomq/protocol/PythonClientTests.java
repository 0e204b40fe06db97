package io.echomq.protocol;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.echomq.EchoMqTemplate;
import io.echomq.annotation.EchoJob;
import io.echomq.core.JobId;
import io.echomq.core.internal.ProtocolManifest;
import io.echomq.listener.JobContext;
import io.echomq.listener.ListenerTestSupport;
import io.echomq.listener.NonRetryableJobException;
import io.echomq.test.TestServer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The Python client ({@code clients/python}) against Java workers on a real server: a
 * Python process enqueues jobs that a real listener container runs and awaits the result
 * each handler returns (and the error of one it refuses), through the scripts of the
 * protocol directory the build writes; and the Python conformance runner passes the kit.
 * Without {@code python3} and its {@code redis} module the tests skip, except in CI
 * ({@code CI=true}), where they fail.
 *
 * @author EchoMQ
 */
class PythonClientTests {

	private static final Path CLIENT = Path.of("../clients/python");

	private static final Path KIT = Path.of("../protocol/conformance");

	private static final Path SCRIPTS = Path.of("../echomq-core/src/main/resources/io/echomq/core/scripts");

	private static final TestServer server = ListenerTestSupport.sharedServer();

	private static String python;

	@TempDir
	static Path protocol;

	private final String prefix = ListenerTestSupport.uniquePrefix();

	@BeforeAll
	static void findPythonAndWriteTheProtocol() throws Exception {
		python = findPython();
		ProtocolManifest.main(new String[] { SCRIPTS.toString(), protocol.toString() });
	}

	@Test
	void pythonEnqueuesToJavaWorkersAndAwaitsTheirResults() {
		String driver = """
				import json, sys, redis, echomq
				host, port, prefix, protocol = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
				client = echomq.Client(redis.Redis(host=host, port=port, decode_responses=True), protocol, prefix=prefix)
				ids = [client.enqueue("py-quotes", json.dumps({"sku": "sku-%d" % n, "quantity": n})) for n in (1, 2, 3)]
				for job_id in ids:
				    print("RESULT", job_id, client.await_result("py-quotes", job_id, timeout=20), flush=True)
				refused = client.enqueue("py-quotes", json.dumps({"sku": "refused", "quantity": 0}), max_attempts=1)
				try:
				    print("RESULT", refused, client.await_result("py-quotes", refused, timeout=20))
				except echomq.JobFailed as failed:
				    print("FAILED", refused, failed.error)
				""";
		ListenerTestSupport.runner(server, this.prefix).withBean(Quotes.class, Quotes::new).run((context) -> {
			Output output = run("-c", driver, server.host(), Integer.toString(server.port()), this.prefix,
					protocol.toString());
			assertThat(output.status()).as(output.text()).isZero();
			List<String[]> lines = output.text().lines().map((line) -> line.split(" ", 3)).toList();
			assertThat(lines).as(output.text()).hasSize(4);
			Quotes quotes = context.getBean(Quotes.class);
			EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
			for (int n = 1; n <= 3; n++) {
				String[] line = lines.get(n - 1);
				JobId id = JobId.parse(line[1]);
				assertThat(line[0]).isEqualTo("RESULT");
				assertThat(line[2]).isEqualTo("{\"sku\":\"sku-" + n + "\",\"cents\":" + (n * 10) + "}");
				assertThat(quotes.handled).containsEntry(id, "sku-" + n);
				assertThat(template.result("py-quotes", id, Quote.class)).isEqualTo(new Quote("sku-" + n, n * 10));
			}
			String[] refused = lines.get(3);
			assertThat(refused[0]).isEqualTo("FAILED");
			assertThat(quotes.handled).containsEntry(JobId.parse(refused[1]), "refused");
			assertThat(refused[2]).contains("no quote for refused");
		});
	}

	@Test
	void pythonConformanceRunnerPassesTheKit() throws IOException {
		long cases;
		try (var files = Files.list(KIT)) {
			cases = files.filter((file) -> file.toString().endsWith(".json")).count();
		}
		Output output = run("-m", "echomq.conformance", "--protocol", protocol.toString(), "--kit", KIT.toString(),
				"--url", "redis://" + server.host() + ":" + server.port() + "/0");
		assertThat(output.status()).as(output.text()).isZero();
		assertThat(output.text()).contains(cases + " cases, 0 failed").doesNotContain("FAIL ");
	}

	@Test
	void idsMintedInPythonAreJobIdsInMintOrderAndReadJavaIds() {
		JobId java = JobId.mint();
		String driver = """
				import sys
				from echomq import ids
				print(ids.timestamp(sys.argv[1]), ids.encode(ids.decode(sys.argv[1])))
				for _ in range(1000):
				    print(ids.mint())
				""";
		long before = System.currentTimeMillis();
		Output output = run("-c", driver, java.toString());
		long after = System.currentTimeMillis();
		assertThat(output.status()).as(output.text()).isZero();
		List<String> lines = output.text().lines().toList();
		assertThat(lines.get(0)).isEqualTo(java.timestamp().toEpochMilli() + " " + java);
		List<JobId> minted = lines.subList(1, lines.size()).stream().map(JobId::parse).toList();
		assertThat(minted).hasSize(1000).isSorted().doesNotHaveDuplicates();
		assertThat(minted).allSatisfy((id) -> assertThat(id.timestamp().toEpochMilli()).isBetween(before, after));
		assertThat(lines.subList(1, lines.size())).isSorted();
	}

	private static Output run(String... arguments) {
		return runWith(python, arguments);
	}

	/**
	 * Run a Python process with the client on its path, and wait for it (60 s at most).
	 */
	static Output runWith(String python, String... arguments) {
		List<String> command = new ArrayList<>(List.of(python));
		command.addAll(List.of(arguments));
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
		builder.environment().put("PYTHONPATH", CLIENT.toAbsolutePath().normalize().toString());
		builder.environment().put("PYTHONDONTWRITEBYTECODE", "1");
		try {
			Process process = builder.start();
			byte[] out = process.getInputStream().readAllBytes();
			if (!process.waitFor(60, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				fail("python did not finish within 60 s: " + new String(out, StandardCharsets.UTF_8));
			}
			return new Output(process.exitValue(), new String(out, StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * The first of {@code $ECHOMQ_PYTHON}, {@code python3} on the path and
	 * {@code /usr/bin/python3} that imports {@code redis} (a Python of a version manager
	 * on the path may lack the Debian package's module).
	 */
	static String findPython() {
		List<String> candidates = new ArrayList<>();
		String configured = System.getenv("ECHOMQ_PYTHON");
		if (configured != null && !configured.isBlank()) {
			candidates.add(configured);
		}
		candidates.add("python3");
		candidates.add("/usr/bin/python3");
		List<String> tried = new ArrayList<>();
		for (String candidate : candidates) {
			String problem = problem(candidate);
			if (problem == null) {
				return candidate;
			}
			tried.add(candidate + ": " + problem);
		}
		String reason = "No python3 with the redis module (apt-get install python3-redis): " + tried;
		if ("true".equalsIgnoreCase(System.getenv("CI"))) {
			fail(reason);
		}
		Assumptions.abort(reason);
		return "";
	}

	private static @Nullable String problem(String candidate) {
		try {
			Process process = new ProcessBuilder(candidate, "-c", "import redis").redirectErrorStream(true).start();
			String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
			if (!process.waitFor(30, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				return "did not answer";
			}
			return (process.exitValue() == 0) ? null
					: out.lines().reduce((first, second) -> second).orElse("exit " + process.exitValue());
		}
		catch (IOException ex) {
			return "not found";
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return "interrupted";
		}
	}

	record Output(int status, String text) {
	}

	static class Quotes {

		final Map<JobId, String> handled = new ConcurrentHashMap<>();

		@EchoJob(queue = "py-quotes")
		Quote quote(JobContext context, Request request) {
			this.handled.put(context.id(), request.sku());
			if (request.quantity() == 0) {
				throw new NonRetryableJobException("no quote for " + request.sku());
			}
			return new Quote(request.sku(), request.quantity() * 10);
		}

	}

	record Request(String sku, int quantity) {
	}

	record Quote(String sku, int cents) {
	}

}
