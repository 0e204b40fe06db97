package io.echomq.benchmark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

import io.echomq.core.Keyspace;
import io.echomq.core.internal.ScriptExecutor;
import io.echomq.core.internal.Engine;
import io.echomq.test.server.RedisServerProcess;
import io.echomq.test.server.RespClient;
import io.echomq.test.server.ServerBinary;
import io.echomq.test.server.ServerFlavor;
import io.echomq.test.server.ServerOptions;
import io.lettuce.core.event.command.CommandListener;
import io.lettuce.core.event.command.CommandStartedEvent;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A server the benchmark starts itself on a free loopback port, with the Lettuce
 * connection factory the engine runs on and an administrative RESP connection for
 * {@code INFO}, {@code FLUSHALL} and {@code CONFIG RESETSTAT}.
 * <p>
 * Every command the Lettuce client sends is counted (a {@link CommandListener} that bumps
 * a counter), so that round trips per job can be told apart from the commands the server
 * runs inside scripts, which {@code INFO commandstats} counts too.
 *
 * @author EchoMQ
 */
public final class BenchServer implements AutoCloseable {

	private static final System.Logger logger = System.getLogger(BenchServer.class.getName());

	private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(120);

	private final RedisServerProcess process;

	private final LettuceConnectionFactory connectionFactory;

	private final StringRedisTemplate template;

	private final RespClient admin;

	private final LongAdder clientCommands = new LongAdder();

	private BenchServer(RedisServerProcess process) {
		this.process = process;
		this.connectionFactory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(process.host(), process.port()));
		this.connectionFactory.afterPropertiesSet();
		this.connectionFactory.start();
		this.connectionFactory.getRequiredNativeClient().addListener(new CommandListener() {

			@Override
			public void commandStarted(CommandStartedEvent event) {
				BenchServer.this.clientCommands.increment();
			}

		});
		this.template = new StringRedisTemplate(this.connectionFactory);
		try {
			this.admin = RespClient.connect(process.host(), process.port(), ADMIN_TIMEOUT);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Start a server of the given flavor from {@code PATH}, or, outside CI, the next one
	 * the tests would use when it is missing.
	 * @param flavor the flavor
	 * @return the running server
	 * @throws IllegalStateException on CI when no such binary is on {@code PATH}
	 * @see #binary(ServerFlavor, Function)
	 */
	public static BenchServer start(ServerFlavor flavor) {
		return start(flavor, List.of());
	}

	/**
	 * Start a server of the given flavor from {@code PATH} with extra arguments, or,
	 * outside CI, the next one the tests would use when it is missing.
	 * @param flavor the flavor
	 * @param extraArgs extra command line arguments, e.g.
	 * {@code --hash-max-listpack-value 128}
	 * @return the running server
	 * @throws IllegalStateException on CI when no such binary is on {@code PATH}
	 * @see #binary(ServerFlavor, Function)
	 */
	public static BenchServer start(ServerFlavor flavor, List<String> extraArgs) {
		ServerBinary binary = binary(flavor, System::getenv);
		RedisServerProcess process = RedisServerProcess.start(binary,
				ServerOptions.builder().extraArgs(extraArgs.toArray(String[]::new)).build());
		try {
			return new BenchServer(process);
		}
		catch (RuntimeException ex) {
			process.close();
			throw ex;
		}
	}

	/**
	 * Choose the binary to benchmark: the given flavor from {@code PATH} (or its
	 * variable), else, with a warning, {@code valkey-server}, {@code redis-server} and
	 * the Redis inside the embedded-redis jar, in that order, as the tests do. Every
	 * result line names the server that ran. On CI ({@code CI=true}) the flavor is
	 * required.
	 * @param flavor the flavor asked for
	 * @param env the environment, e.g. {@code System::getenv}
	 * @return the binary
	 * @throws IllegalStateException on CI when the flavor is missing, or when there is no
	 * binary at all
	 */
	static ServerBinary binary(ServerFlavor flavor, Function<String, @Nullable String> env) {
		Optional<ServerBinary> wanted = ServerBinary.onPath(flavor, env);
		if (wanted.isPresent()) {
			return wanted.get();
		}
		String missing = flavor.serverExecutable() + " is not on PATH (and " + flavor.serverVariable() + " is not set)";
		if ("true".equalsIgnoreCase(env.apply("CI"))) {
			throw new IllegalStateException(missing + "; CI requires it");
		}
		ServerBinary fallback = ServerBinary.locate(env);
		logger.log(Level.WARNING, () -> missing + "; benchmarking " + fallback.describe() + " instead");
		return fallback;
	}

	/**
	 * Return the label of this server in result lines.
	 * @return e.g. {@code valkey-8.0.1}
	 */
	public String label() {
		return this.process.flavor().name().toLowerCase(Locale.ROOT) + "-" + this.process.version();
	}

	/**
	 * Return the server process.
	 * @return the process
	 */
	public RedisServerProcess process() {
		return this.process;
	}

	/**
	 * Return the connection factory.
	 * @return the factory
	 */
	public LettuceConnectionFactory connectionFactory() {
		return this.connectionFactory;
	}

	/**
	 * Return a template on the connection factory.
	 * @return the template
	 */
	public StringRedisTemplate template() {
		return this.template;
	}

	/**
	 * Create engine verbs on the connection factory, with the default keyspace.
	 * @return new verbs
	 */
	public Engine newEngine() {
		return new Engine(new ScriptExecutor(new StringRedisTemplate(this.connectionFactory)), Keyspace.defaults());
	}

	/**
	 * Return how many commands the Lettuce client sent so far.
	 * @return the count
	 */
	public long clientCommands() {
		return this.clientCommands.sum();
	}

	/**
	 * Delete every key and reset the command statistics.
	 */
	public synchronized void reset() {
		command("FLUSHALL", "SYNC");
		command("CONFIG", "RESETSTAT");
	}

	/**
	 * Reset the command statistics.
	 */
	public synchronized void resetStats() {
		command("CONFIG", "RESETSTAT");
	}

	/**
	 * Read one {@code INFO} section as fields.
	 * @param section e.g. {@code memory}
	 * @return the fields
	 */
	public synchronized Map<String, String> info(String section) {
		Object reply = command("INFO", section);
		Map<String, String> fields = new HashMap<>();
		for (String line : String.valueOf(reply).split("\r\n")) {
			int colon = line.indexOf(':');
			if (colon > 0 && !line.startsWith("#")) {
				fields.put(line.substring(0, colon), line.substring(colon + 1));
			}
		}
		return fields;
	}

	/**
	 * Return the bytes the server's allocator reports in use ({@code used_memory}).
	 * @return the bytes
	 */
	public long usedMemory() {
		return Long.parseLong(info("memory").get("used_memory"));
	}

	/**
	 * Return the CPU time the server process used so far ({@code used_cpu_user} plus
	 * {@code used_cpu_sys}).
	 * @return the CPU time in seconds
	 */
	public double cpuSeconds() {
		Map<String, String> cpu = info("cpu");
		return Double.parseDouble(cpu.get("used_cpu_user")) + Double.parseDouble(cpu.get("used_cpu_sys"));
	}

	/**
	 * Return the command statistics since the last reset.
	 * @return the statistics
	 */
	public CommandStats commandStats() {
		return CommandStats.parse(info("commandstats"));
	}

	/**
	 * Return the bytes one key takes ({@code MEMORY USAGE key SAMPLES 0}).
	 * @param key the key
	 * @return the bytes, or 0 if the key does not exist
	 */
	public synchronized long memoryUsage(String key) {
		Object reply = command("MEMORY", "USAGE", key, "SAMPLES", "0");
		return (reply instanceof Long bytes) ? bytes : 0;
	}

	/**
	 * Send a command on the administrative connection.
	 * @param args the command and its arguments
	 * @return the reply
	 */
	public synchronized Object command(String... args) {
		try {
			Object reply = this.admin.command(args);
			return (reply != null) ? reply : "";
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Override
	public void close() {
		try {
			this.admin.close();
		}
		catch (IOException ex) {
			// closing anyway
		}
		this.connectionFactory.destroy();
		this.process.close();
	}

}
