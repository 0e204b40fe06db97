package io.echomq.test.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * A Redis or Valkey server running as a child process on a loopback port, with a
 * temporary working directory of its own.
 * <p>
 * {@link #kill()} and {@link #stop()} end the process but keep its directory, so that
 * {@link #restart()} brings the server back on the same port with the same data (as far
 * as its persistence settings keep any). {@link #close()} ends the process and deletes
 * the directory. A JVM shutdown hook kills every server that is still running.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public final class RedisServerProcess implements AutoCloseable {

	private static final String HOST = "127.0.0.1";

	private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(15);

	private static final Duration POLL_INTERVAL = Duration.ofMillis(20);

	private static final Duration PING_TIMEOUT = Duration.ofMillis(500);

	private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

	private static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(5);

	private static final int PORT_ATTEMPTS = 5;

	private static final int LOG_TAIL_LINES = 30;

	private static final String LOG_FILE = "server.log";

	private static final String OUTPUT_FILE = "output.log";

	private static final String SENTINEL_CONFIG_FILE = "sentinel.conf";

	private final ServerBinary binary;

	private final ServerOptions options;

	private final Path directory;

	private final int port;

	private volatile Process process;

	private volatile boolean closed;

	private final CountDownLatch closedLatch = new CountDownLatch(1);

	private volatile Duration exitGrace = Duration.ZERO;

	private RedisServerProcess(ServerBinary binary, ServerOptions options, Path directory, int port, Process process) {
		this.binary = binary;
		this.options = options;
		this.directory = directory;
		this.port = port;
		this.process = process;
	}

	/**
	 * Start a server and wait until it answers {@code PING}.
	 * @param binary the server binary
	 * @param options how to start it
	 * @return the running server
	 * @throws IllegalStateException if the server cannot be started or does not answer
	 * within 15 seconds; the message holds the tail of its log
	 */
	public static RedisServerProcess start(ServerBinary binary, ServerOptions options) {
		Path directory = createDirectory();
		try {
			for (int attempt = 1;; attempt++) {
				int port = (options.port() != 0) ? options.port() : FreePorts.pick(options.clusterEnabled());
				try {
					return startOn(binary, options, directory, port);
				}
				catch (StartupException ex) {
					if (!ex.portInUse || options.port() != 0 || attempt == PORT_ATTEMPTS) {
						throw ex;
					}
					clearLogs(directory);
				}
			}
		}
		catch (RuntimeException ex) {
			Directories.deleteQuietly(directory);
			throw ex;
		}
	}

	private static RedisServerProcess startOn(ServerBinary binary, ServerOptions options, Path directory, int port) {
		Process process = launch(binary, options, directory, port);
		RedisServerProcess server = new RedisServerProcess(binary, options, directory, port, process);
		ProcessReaper.register(server);
		try {
			server.awaitReady(process);
			return server;
		}
		catch (RuntimeException ex) {
			process.destroyForcibly();
			waitFor(process, STOP_TIMEOUT);
			ProcessReaper.unregister(server);
			throw ex;
		}
	}

	/**
	 * Return the loopback address the server listens on.
	 * @return {@code 127.0.0.1}
	 */
	public String host() {
		return HOST;
	}

	/**
	 * Return the port the server listens on; it stays the same across restarts.
	 * @return the port
	 */
	public int port() {
		return this.port;
	}

	/**
	 * Return {@code host:port}, as cluster seed lists want it.
	 * @return e.g. {@code 127.0.0.1:26001}
	 */
	public String address() {
		return HOST + ":" + this.port;
	}

	/**
	 * Return the kind of server.
	 * @return the flavor
	 */
	public ServerFlavor flavor() {
		return this.binary.flavor();
	}

	/**
	 * Return the server version.
	 * @return e.g. {@code 8.0.1}
	 */
	public String version() {
		return this.binary.version();
	}

	/**
	 * Return the binary this server runs.
	 * @return the binary
	 */
	public ServerBinary binary() {
		return this.binary;
	}

	/**
	 * Return the options this server was started with.
	 * @return the options, with the port that was requested (possibly {@code 0})
	 */
	public ServerOptions options() {
		return this.options;
	}

	/**
	 * Return the server's working directory, which holds its log and data files.
	 * @return the directory
	 */
	public Path directory() {
		return this.directory;
	}

	/**
	 * Return the operating system id of the current server process.
	 * @return the pid; it changes on restart
	 */
	public long pid() {
		return this.process.pid();
	}

	/**
	 * Return whether the server process is running.
	 * @return {@code true} if it is running
	 */
	public boolean isAlive() {
		return this.process.isAlive();
	}

	/**
	 * Open a RESP connection to this server.
	 * @return a new client, to be closed by the caller
	 * @throws UncheckedIOException if the server cannot be reached
	 */
	public RespClient openClient() {
		try {
			return RespClient.connect(HOST, this.port, CLIENT_TIMEOUT);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot connect to " + describe(), ex);
		}
	}

	/**
	 * Kill the server process with {@code SIGKILL}, as a crash would, and wait for it to
	 * end. The working directory is kept for {@link #restart()}.
	 */
	public synchronized void kill() {
		Process current = this.process;
		current.destroyForcibly();
		if (!waitFor(current, STOP_TIMEOUT)) {
			throw new IllegalStateException(describe() + " (pid " + current.pid() + ") did not die after SIGKILL");
		}
	}

	/**
	 * Shut the server down cleanly with {@code SHUTDOWN NOSAVE} and wait for it to end,
	 * killing it if it does not. The working directory is kept for {@link #restart()}.
	 */
	public synchronized void stop() {
		Process current = this.process;
		if (!current.isAlive()) {
			return;
		}
		if (!requestShutdown()) {
			current.destroy();
		}
		if (!waitFor(current, STOP_TIMEOUT)) {
			kill();
		}
	}

	/**
	 * Start the server again on the same port and in the same directory, stopping it
	 * first if it is running, and wait until it answers {@code PING}.
	 * @throws IllegalStateException if the server is closed or does not come back
	 */
	public synchronized void restart() {
		if (this.closed) {
			throw new IllegalStateException(describe() + " is closed");
		}
		stop();
		Process restarted = launch(this.binary, this.options, this.directory, this.port);
		this.process = restarted;
		try {
			awaitReady(restarted);
		}
		catch (RuntimeException ex) {
			restarted.destroyForcibly();
			waitFor(restarted, STOP_TIMEOUT);
			throw ex;
		}
	}

	/**
	 * Kill the server if it is running and delete its working directory.
	 */
	@Override
	public synchronized void close() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		try {
			if (isAlive()) {
				kill();
			}
		}
		finally {
			Directories.deleteQuietly(this.directory);
			ProcessReaper.unregister(this);
			this.closedLatch.countDown();
		}
	}

	/**
	 * Set how long the JVM shutdown hook that kills every server still running waits for
	 * this one to be {@linkplain #close() closed} by its owner first, for an owner that
	 * closes it from a shutdown hook of its own once whatever uses the server has shut
	 * down (e.g. after an application context drained its listeners). The server never
	 * outlives the JVM: once the grace is over it is killed.
	 * @param exitGrace the grace, {@link Duration#ZERO} (the default) to kill at once
	 */
	public void setExitGrace(Duration exitGrace) {
		if (exitGrace.isNegative()) {
			throw new IllegalArgumentException("Exit grace must not be negative, got " + exitGrace);
		}
		this.exitGrace = exitGrace;
	}

	/**
	 * Return how long the JVM shutdown hook waits for this server to be closed by its
	 * owner before it kills it.
	 * @return the grace, {@link Duration#ZERO} unless {@linkplain #setExitGrace set}
	 */
	public Duration exitGrace() {
		return this.exitGrace;
	}

	@Override
	public String toString() {
		return describe() + (isAlive() ? " pid " + pid() : " (not running)");
	}

	/**
	 * Kill the process and delete the directory without waiting for locks, for the JVM
	 * shutdown hook, unless the owner closes the server within its exit grace.
	 */
	void reap() {
		try {
			if (this.closedLatch.await(this.exitGrace.toMillis(), TimeUnit.MILLISECONDS)) {
				return;
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		Process current = this.process;
		current.destroyForcibly();
		waitFor(current, Duration.ofSeconds(2));
		Directories.deleteQuietly(this.directory);
	}

	private boolean requestShutdown() {
		try (RespClient client = RespClient.connect(HOST, this.port, PING_TIMEOUT)) {
			try {
				client.command("SHUTDOWN", "NOSAVE", "NOW");
			}
			catch (RespErrorException ex) {
				// Redis 6.2 knows no NOW
				client.command("SHUTDOWN", "NOSAVE");
			}
			return true;
		}
		catch (IOException ex) {
			// The server closes the connection as it shuts down
			return true;
		}
		catch (RespErrorException ex) {
			return false;
		}
	}

	private void awaitReady(Process started) {
		Deadline deadline = Deadline.after(STARTUP_TIMEOUT);
		while (!answersPing(started)) {
			if (!started.isAlive()) {
				throw startupFailure("exited with code " + started.exitValue() + " before answering PING");
			}
			if (deadline.hasExpired()) {
				throw startupFailure("did not answer PING within " + STARTUP_TIMEOUT.toSeconds() + " s");
			}
			waitFor(started, POLL_INTERVAL);
		}
	}

	private boolean answersPing(Process started) {
		try (RespClient client = RespClient.connect(HOST, this.port, PING_TIMEOUT)) {
			if (!"PONG".equals(client.command("PING"))) {
				return false;
			}
			// Make sure it is our process that answers, not one that won a race for the
			// port
			String info = client.commandForString("INFO", "server");
			return info.contains("process_id:" + started.pid() + "\r\n");
		}
		catch (IOException | RespErrorException ex) {
			return false;
		}
	}

	private StartupException startupFailure(String reason) {
		Path log = this.directory.resolve(LOG_FILE);
		Path output = this.directory.resolve(OUTPUT_FILE);
		boolean portInUse = LogTail.contains(log, "Address already in use")
				|| LogTail.contains(output, "Address already in use");
		String message = describe() + " " + reason + ". Command: "
				+ String.join(" ", commandLine(this.binary, this.options, this.directory, this.port))
				+ System.lineSeparator() + "--- " + log + " (tail) ---" + System.lineSeparator()
				+ LogTail.of(log, LOG_TAIL_LINES) + System.lineSeparator() + "--- " + output + " (tail) ---"
				+ System.lineSeparator() + LogTail.of(output, LOG_TAIL_LINES);
		return new StartupException(message, portInUse);
	}

	private String describe() {
		return this.binary.describe() + " on " + address();
	}

	private static Process launch(ServerBinary binary, ServerOptions options, Path directory, int port) {
		List<String> command = commandLine(binary, options, directory, port);
		try {
			if (options.sentinel() && !Files.exists(directory.resolve(SENTINEL_CONFIG_FILE))) {
				// a Sentinel refuses to start without a configuration file it can rewrite
				Files.createFile(directory.resolve(SENTINEL_CONFIG_FILE));
			}
			Process started = new ProcessBuilder(command).directory(directory.toFile())
				.redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.appendTo(directory.resolve(OUTPUT_FILE).toFile()))
				.start();
			started.getOutputStream().close();
			return started;
		}
		catch (IOException ex) {
			throw new IllegalStateException(
					"Cannot start server binary " + binary.executable() + ": " + ex.getMessage(), ex);
		}
	}

	static List<String> commandLine(ServerBinary binary, ServerOptions options, Path directory, int port) {
		List<String> command = new ArrayList<>(List.of(binary.executable().toString()));
		if (options.sentinel()) {
			command.addAll(List.of(directory.resolve(SENTINEL_CONFIG_FILE).toString(), "--sentinel"));
		}
		command.addAll(List.of("--port", String.valueOf(port), "--bind", HOST, "--save", "", "--appendonly",
				options.appendOnly() ? "yes" : "no", "--dir", directory.toString(), "--daemonize", "no",
				"--protected-mode", "no", "--logfile", directory.resolve(LOG_FILE).toString()));
		if (options.clusterEnabled()) {
			command.addAll(List.of("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
					"--cluster-node-timeout", "2000"));
		}
		addIfSet(command, "--appendfsync", options.appendFsync());
		addIfSet(command, "--maxmemory", options.maxMemory());
		addIfSet(command, "--maxmemory-policy", options.maxMemoryPolicy());
		command.addAll(options.extraArgs());
		return command;
	}

	private static void addIfSet(List<String> command, String option, @Nullable String value) {
		if (value != null) {
			command.add(option);
			command.add(value);
		}
	}

	private static Path createDirectory() {
		try {
			return Files.createTempDirectory("echomq-server-").toAbsolutePath();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot create a working directory for a server", ex);
		}
	}

	private static void clearLogs(Path directory) {
		try {
			Files.deleteIfExists(directory.resolve(LOG_FILE));
			Files.deleteIfExists(directory.resolve(OUTPUT_FILE));
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot clear logs in " + directory, ex);
		}
	}

	private static boolean waitFor(Process process, Duration timeout) {
		try {
			return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting for pid " + process.pid(), ex);
		}
	}

	/**
	 * A server that did not come up.
	 */
	private static final class StartupException extends IllegalStateException {

		private static final long serialVersionUID = 1L;

		private final boolean portInUse;

		StartupException(String message, boolean portInUse) {
			super(message);
			this.portInUse = portInUse;
		}

	}

}
