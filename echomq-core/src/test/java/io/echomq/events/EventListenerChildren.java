package io.echomq.events;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Starts and stops the child JVMs of the event stream tests
 * ({@link EventListenerProcess}), collecting the {@code EVENT} and {@code GAP} lines they
 * print.
 *
 * @author EchoMQ
 */
final class EventListenerChildren {

	static final Duration TIMEOUT = Duration.ofSeconds(60);

	private EventListenerChildren() {
	}

	/**
	 * Start a child listening to a queue's events as listener {@code id}, once it says it
	 * listens.
	 * @param connection the engine's connection arguments
	 * @param queue the queue
	 * @param id the listener id
	 * @param heard where its {@code EVENT} and {@code GAP} lines go
	 * @return the child
	 * @throws Exception if it cannot be started
	 */
	static Child start(String[] connection, String queue, String id, List<String> heard) throws Exception {
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		Process process = new ProcessBuilder(java, "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp",
				System.getProperty("java.class.path"), EventListenerProcess.class.getName(), connection[0],
				connection[1], queue, id)
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

	/**
	 * The {@code EVENT} lines among the lines heard, split into their fields.
	 * @param lines the lines
	 * @return the events
	 */
	static List<String[]> events(List<String> lines) {
		return lines.stream().filter((line) -> line.startsWith("EVENT ")).map((line) -> line.split(" ")).toList();
	}

	record Child(Process process, List<String> output) {

		void stop() throws Exception {
			OutputStream in = this.process.getOutputStream();
			in.write("stop\n".getBytes(StandardCharsets.UTF_8));
			in.flush();
			await().atMost(TIMEOUT).until(() -> !this.process.isAlive());
			assertThat(this.output).contains("STOPPED");
		}

	}

}
