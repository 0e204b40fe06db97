package io.echomq.events;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.echomq.core.EngineTestSupport;
import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.FencingToken;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two copies of one application, each in its own JVM with the same
 * {@link JobEventStreamListener} (one fixed id), as a web node and a worker run it:
 * together they hear each event of the queue exactly once, and neither reports a gap for
 * the events the other heard.
 *
 * @author EchoMQ
 */
@EnumSource(names = { "VALKEY", "REDIS" })
class EventListenerCopiesProcessTests extends EngineTestSupport {

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	private static final int JOBS = 300;

	@Test
	void twoJvmsWithTheSameListenerShareItsEventsExactlyOnceWithoutAGap() throws Exception {
		this.jobs.events().enable(this.queue, 100_000);
		List<String> heard = new CopyOnWriteArrayList<>();
		Child web = startChild(heard);
		Child worker = startChild(heard);
		runJobs();
		await().atMost(TIMEOUT).until(() -> events(heard).size() >= 3 * JOBS);
		web.stop();
		worker.stop();
		List<Long> sequences = events(heard).stream().map((event) -> Long.parseLong(event[1])).sorted().toList();
		assertThat(sequences).as("each event heard once across the copies").doesNotHaveDuplicates().hasSize(3 * JOBS);
		assertThat(sequences.get(0)).isOne();
		assertThat(sequences.get(sequences.size() - 1)).isEqualTo(3L * JOBS);
		assertThat(heard).as("gaps reported by the copies").noneMatch((line) -> line.startsWith("GAP"));
	}

	private void runJobs() {
		List<String> payloads = new ArrayList<>();
		for (int i = 0; i < JOBS; i++) {
			payloads.add("p" + i);
		}
		this.jobs.enqueues().enqueueAll(this.queue, payloads, EnqueueSpec.defaults());
		int done = 0;
		while (done < JOBS) {
			List<ClaimedJob> claimed = this.jobs.claims().claim(this.queue, LEASE, 64);
			this.jobs.outcomes()
				.completeAll(this.queue, claimed.stream().map(ClaimedJob::id).toList(),
						claimed.stream().map(ClaimedJob::token).toList());
			done += claimed.size();
		}
	}

	private static List<String[]> events(List<String> lines) {
		return lines.stream().filter((line) -> line.startsWith("EVENT ")).map((line) -> line.split(" ")).toList();
	}

	private Child startChild(List<String> heard) throws Exception {
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		String[] connection = this.engine.connectionArguments();
		Process process = new ProcessBuilder(java, "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp",
				System.getProperty("java.class.path"), EventListenerProcess.class.getName(), connection[0],
				connection[1], this.queue, "audit-trail")
			.redirectErrorStream(true)
			.start();
		List<String> own = new CopyOnWriteArrayList<>();
		Thread reader = new Thread(() -> {
			try (BufferedReader in = new BufferedReader(
					new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
				String line;
				while ((line = in.readLine()) != null) {
					own.add(line);
					if (line.startsWith("EVENT ") || line.startsWith("GAP ")) {
						heard.add(line);
					}
				}
			}
			catch (Exception ex) {
				own.add("READ FAILED " + ex);
			}
		});
		reader.setDaemon(true);
		reader.start();
		await().atMost(TIMEOUT).until(() -> own.contains("READY") || !process.isAlive());
		assertThat(process.isAlive()).as("child: %s", own).isTrue();
		return new Child(process, own);
	}

	private record Child(Process process, List<String> output) {

		void stop() throws Exception {
			OutputStream in = this.process.getOutputStream();
			in.write("stop\n".getBytes(StandardCharsets.UTF_8));
			in.flush();
			await().atMost(TIMEOUT).until(() -> !this.process.isAlive());
			assertThat(this.output).contains("STOPPED");
		}

	}

}
