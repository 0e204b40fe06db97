package io.echomq.test;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;

import io.echomq.test.server.LocalCluster;
import io.echomq.test.server.LocalSentinel;
import io.echomq.test.server.RedisServerProcess;
import io.echomq.test.server.ServerBinary;
import io.echomq.test.server.ServerFlavor;
import io.echomq.test.server.ServerOptions;
import org.jspecify.annotations.Nullable;

/**
 * Supplies real Redis or Valkey servers to tests.
 * <p>
 * {@link #start()} resolves a server in this order:
 * <ol>
 * <li>the address in the {@value #URL_VARIABLE} environment variable
 * ({@code redis://host:port}), used as it is and never stopped;</li>
 * <li>a {@value TestcontainersSupport#IMAGE} container, when Testcontainers is on the
 * class path and a Docker engine answers (set {@value #TESTCONTAINERS_VARIABLE} to
 * {@code false} to skip this step);</li>
 * <li>a {@code valkey-server} or {@code redis-server} binary on {@code PATH};</li>
 * <li>the Redis binary shipped inside the embedded-redis jar.</li>
 * </ol>
 * When a specific {@linkplain ServerFlavor flavor} is asked for, only a server of that
 * flavor serves it: its binary on {@code PATH}, or for {@link ServerFlavor#REDIS} the
 * embedded Redis. When there is none, the test is skipped with the reason (a JUnit
 * assumption: {@code TestAbortedException}), never run on another server under the
 * flavor's name; on CI (environment variable {@code CI=true}) the binary is required and
 * its absence fails.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public final class TestRedisServer {

	/** Environment variable with the address of a server to use as it is. */
	public static final String URL_VARIABLE = "ECHOMQ_TEST_REDIS_URL";

	/** Environment variable that skips the Testcontainers step when {@code false}. */
	public static final String TESTCONTAINERS_VARIABLE = "ECHOMQ_TEST_TESTCONTAINERS";

	private static final System.Logger logger = System.getLogger(TestRedisServer.class.getName());

	private static final Duration URL_PROBE_TIMEOUT = Duration.ofSeconds(5);

	private static final int SHARED_CLUSTER_MASTERS = 3;

	private TestRedisServer() {
	}

	/**
	 * Supply a server through the full resolution chain.
	 * @return the server, to be closed by the caller
	 * @throws IllegalStateException if no step can supply one
	 */
	public static TestServer start() {
		return start(System::getenv);
	}

	static TestServer start(Function<String, @Nullable String> env) {
		String url = env.apply(URL_VARIABLE);
		if (url != null && !url.isBlank()) {
			return fromUrl(url);
		}
		Optional<TestServer> container = fromTestcontainers(env);
		if (container.isPresent()) {
			return container.get();
		}
		return startOwned(ServerOptions.defaults(), env);
	}

	/**
	 * Supply a server of the given flavor from a binary on {@code PATH} (for
	 * {@link ServerFlavor#REDIS}, else the embedded Redis).
	 * @param flavor the flavor
	 * @return the server, to be closed by the caller
	 * @throws IllegalStateException on CI when the binary is missing
	 * @throws org.opentest4j.TestAbortedException outside CI when no server of the flavor
	 * is available, so that the test is skipped with the reason
	 */
	public static TestServer start(ServerFlavor flavor) {
		return start(flavor, System::getenv);
	}

	static TestServer start(ServerFlavor flavor, Function<String, @Nullable String> env) {
		return startOwned(flavor, ServerOptions.defaults(), env);
	}

	/**
	 * Start a server process that this JVM owns, so that a test can kill or restart it:
	 * Valkey on {@code PATH}, Redis on {@code PATH}, else the embedded Redis binary.
	 * @return the server, to be closed by the caller; {@link TestServer#process()} is
	 * present
	 * @throws IllegalStateException if no binary is available
	 */
	public static TestServer startOwned() {
		return startOwned(ServerOptions.defaults());
	}

	/**
	 * Start a server process that this JVM owns, with the given options.
	 * @param options e.g. with the append-only file enabled
	 * @return the server, to be closed by the caller; {@link TestServer#process()} is
	 * present
	 * @throws IllegalStateException if no binary is available
	 * @see #startOwned()
	 */
	public static TestServer startOwned(ServerOptions options) {
		return startOwned(options, System::getenv);
	}

	/**
	 * Start a server process of the given flavor that this JVM owns: its binary on
	 * {@code PATH} (for {@link ServerFlavor#REDIS}, else the embedded Redis).
	 * @param flavor the flavor
	 * @return the server, to be closed by the caller; {@link TestServer#process()} is
	 * present
	 * @throws IllegalStateException on CI when the binary is missing
	 * @throws org.opentest4j.TestAbortedException outside CI when no server of the flavor
	 * is available, so that the test is skipped with the reason
	 */
	public static TestServer startOwned(ServerFlavor flavor) {
		return startOwned(flavor, ServerOptions.defaults());
	}

	/**
	 * Start a server process of the given flavor that this JVM owns, with the given
	 * options.
	 * @param flavor the flavor
	 * @param options e.g. with the append-only file enabled
	 * @return the server, to be closed by the caller; {@link TestServer#process()} is
	 * present
	 * @throws IllegalStateException on CI when the binary is missing
	 * @throws org.opentest4j.TestAbortedException outside CI when no server of the flavor
	 * is available, so that the test is skipped with the reason
	 * @see #startOwned(ServerFlavor)
	 */
	public static TestServer startOwned(ServerFlavor flavor, ServerOptions options) {
		return startOwned(flavor, options, System::getenv);
	}

	static TestServer startOwned(ServerFlavor flavor, ServerOptions options, Function<String, @Nullable String> env) {
		Optional<ServerBinary> binary = requiredOnCi(flavor, env);
		if (binary.isPresent()) {
			return own(binary.get(), options, ServerSource.PATH);
		}
		return own(fallback(flavor), options, ServerSource.EMBEDDED);
	}

	/**
	 * Return whether a server of the given flavor can be supplied without failing or
	 * skipping: on CI always (a missing binary fails there), elsewhere when its binary is
	 * on {@code PATH} (or, for {@link ServerFlavor#REDIS}, the embedded Redis ships one).
	 * @param flavor the flavor
	 * @return empty when it can, else the reason why not
	 */
	public static Optional<String> unavailability(ServerFlavor flavor) {
		return unavailability(flavor, System::getenv);
	}

	static Optional<String> unavailability(ServerFlavor flavor, Function<String, @Nullable String> env) {
		if ("true".equalsIgnoreCase(env.apply("CI")) || ServerBinary.onPath(flavor, env).isPresent()
				|| (flavor == ServerFlavor.REDIS && ServerBinary.embedded().isPresent())) {
			return Optional.empty();
		}
		return Optional.of(unavailable(flavor));
	}

	static TestServer startOwned(ServerOptions options, Function<String, @Nullable String> env) {
		for (ServerFlavor flavor : ServerFlavor.values()) {
			Optional<ServerBinary> binary = ServerBinary.onPath(flavor, env);
			if (binary.isPresent()) {
				return own(binary.get(), options, ServerSource.PATH);
			}
		}
		Optional<ServerBinary> embedded = ServerBinary.embedded();
		if (embedded.isPresent()) {
			return own(embedded.get(), options, ServerSource.EMBEDDED);
		}
		// Fails with a message that lists every step tried
		return own(ServerBinary.locate(env), options, ServerSource.PATH);
	}

	/**
	 * Start the Redis binary shipped inside the embedded-redis jar as a process this JVM
	 * owns, whatever is on {@code PATH}: Redis 6.2, the oldest server EchoMQ supports.
	 * @param options e.g. with a {@code maxmemory}
	 * @return the server, to be closed by the caller; {@link TestServer#process()} is
	 * present
	 * @throws IllegalStateException if embedded-redis is not on the class path or ships
	 * no binary for this platform
	 */
	public static TestServer startEmbedded(ServerOptions options) {
		ServerBinary binary = ServerBinary.embedded()
			.orElseThrow(
					() -> new IllegalStateException("No embedded Redis binary: com.github.codemonstur:embedded-redis "
							+ "is not on the class path or ships none for " + System.getProperty("os.name") + "/"
							+ System.getProperty("os.arch")));
		return own(binary, options, ServerSource.EMBEDDED);
	}

	/**
	 * Start a local cluster from Valkey on {@code PATH}, else (outside CI only) Redis on
	 * {@code PATH}, else the embedded Redis binary.
	 * @param masters the number of masters
	 * @param replicasPerMaster the number of replicas for each master
	 * @return the cluster, to be closed by the caller
	 * @throws IllegalStateException on CI when {@code valkey-server} is missing, or if
	 * the cluster does not form
	 */
	public static LocalCluster cluster(int masters, int replicasPerMaster) {
		return cluster(masters, replicasPerMaster, System::getenv);
	}

	/**
	 * Start a local cluster of the given flavor: its binary on {@code PATH} (for
	 * {@link ServerFlavor#REDIS}, else the embedded Redis).
	 * @param flavor the flavor
	 * @param masters the number of masters
	 * @param replicasPerMaster the number of replicas for each master
	 * @return the cluster, to be closed by the caller
	 * @throws IllegalStateException on CI when the binary is missing, or if the cluster
	 * does not form
	 * @throws org.opentest4j.TestAbortedException outside CI when no server of the flavor
	 * is available, so that the test is skipped with the reason
	 */
	public static LocalCluster cluster(ServerFlavor flavor, int masters, int replicasPerMaster) {
		return cluster(flavor, masters, replicasPerMaster, System::getenv);
	}

	static LocalCluster cluster(ServerFlavor flavor, int masters, int replicasPerMaster,
			Function<String, @Nullable String> env) {
		ServerBinary binary = requiredOnCi(flavor, env).orElseGet(() -> fallback(flavor));
		logger.log(Level.INFO, () -> "Starting a test cluster from " + binary.describe());
		return LocalCluster.start(binary, masters, replicasPerMaster);
	}

	static LocalCluster cluster(int masters, int replicasPerMaster, Function<String, @Nullable String> env) {
		ServerBinary binary = requiredOnCi(ServerFlavor.VALKEY, env)
			.or(() -> ServerBinary.onPath(ServerFlavor.REDIS, env))
			.or(ServerBinary::embedded)
			.orElseGet(() -> ServerBinary.locate(env));
		logger.log(Level.INFO, () -> "Starting a test cluster from " + binary.describe());
		return LocalCluster.start(binary, masters, replicasPerMaster);
	}

	/**
	 * Start a primary with replicas and the Sentinels that watch it, from the given
	 * flavor's binary on {@code PATH}, run as a Sentinel with {@code --sentinel} (for
	 * {@link ServerFlavor#REDIS}, else the embedded Redis).
	 * @param flavor the flavor
	 * @param replicas the number of replicas, at least 1
	 * @param sentinels the number of Sentinels, at least 3
	 * @return the deployment, to be closed by the caller
	 * @throws IllegalStateException on CI when the binary is missing, or if the
	 * deployment does not form
	 * @throws org.opentest4j.TestAbortedException outside CI when no server of the flavor
	 * is available, so that the test is skipped with the reason
	 */
	public static LocalSentinel sentinel(ServerFlavor flavor, int replicas, int sentinels) {
		return sentinel(flavor, replicas, sentinels, System::getenv);
	}

	static LocalSentinel sentinel(ServerFlavor flavor, int replicas, int sentinels,
			Function<String, @Nullable String> env) {
		ServerBinary binary = requiredOnCi(flavor, env).orElseGet(() -> fallback(flavor));
		logger.log(Level.INFO, () -> "Starting Sentinels and their servers from " + binary.describe());
		return LocalSentinel.start(binary, replicas, sentinels);
	}

	/**
	 * Return a server shared by all tests of this JVM, supplied on first use through the
	 * full resolution chain as {@link #start()} does and released when the JVM exits. Its
	 * {@link TestServer#close()} does nothing.
	 * @return the shared server
	 */
	public static TestServer shared() {
		return SharedServers.server(null, TestRedisServer::start);
	}

	/**
	 * Return a server of the given flavor shared by all tests of this JVM, started on
	 * first use as {@link #start(ServerFlavor)} does and released when the JVM exits. Its
	 * {@link TestServer#close()} does nothing; tests that kill or restart a server should
	 * use {@link #startOwned()} instead.
	 * @param flavor the flavor
	 * @return the shared server
	 * @throws IllegalStateException on CI when the binary is missing
	 * @throws org.opentest4j.TestAbortedException outside CI when no server of the flavor
	 * is available, so that the test is skipped with the reason
	 */
	public static TestServer shared(ServerFlavor flavor) {
		return SharedServers.server(flavor, () -> start(flavor));
	}

	/**
	 * Return a server shared by the tests of this JVM that prefer the given flavor but
	 * are not about it: a server of the flavor when its binary is on {@code PATH} (or on
	 * CI, which requires it), else any server, as {@link #start()} supplies, rather than
	 * a skip. It is kept apart from the servers of {@link #shared()} and
	 * {@link #shared(ServerFlavor)}, so that these tests see no other tests' traffic.
	 * @param flavor the preferred flavor
	 * @return the shared server
	 */
	public static TestServer sharedPreferring(ServerFlavor flavor) {
		boolean required = ServerBinary.onPath(flavor).isPresent() || "true".equalsIgnoreCase(System.getenv("CI"));
		return SharedServers.serverNamed("preferring " + flavor.name(), () -> required ? start(flavor) : start());
	}

	/**
	 * Return a cluster of three masters without replicas shared by all tests of this JVM,
	 * started on first use and closed when the JVM exits. Do not close it; one found
	 * closed or with a dead node is replaced.
	 * @return the shared cluster
	 */
	public static LocalCluster sharedCluster() {
		return SharedServers.cluster(() -> cluster(SHARED_CLUSTER_MASTERS, 0));
	}

	private static TestServer fromUrl(String url) {
		RedisAddress address;
		try {
			address = RedisAddress.parse(url);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalStateException(URL_VARIABLE + ": " + ex.getMessage(), ex);
		}
		ServerIdentity identity;
		try {
			identity = ServerIdentity.probe(address.host(), address.port(), URL_PROBE_TIMEOUT);
		}
		catch (IllegalStateException ex) {
			throw new IllegalStateException(URL_VARIABLE + "=" + url + ": " + ex.getMessage(), ex);
		}
		logger.log(Level.INFO,
				() -> "Using " + identity.flavor() + " " + identity.version() + " at " + url + " from " + URL_VARIABLE);
		return ResolvedTestServer.external(address.host(), address.port(), identity, ServerSource.ENVIRONMENT, () -> {
		});
	}

	private static Optional<TestServer> fromTestcontainers(Function<String, @Nullable String> env) {
		if ("false".equalsIgnoreCase(env.apply(TESTCONTAINERS_VARIABLE))) {
			logger.log(Level.DEBUG, () -> "Skipping Testcontainers: " + TESTCONTAINERS_VARIABLE + "=false");
			return Optional.empty();
		}
		boolean docker;
		try {
			docker = TestcontainersSupport.isDockerAvailable();
		}
		catch (VirtualMachineError ex) {
			throw ex;
		}
		catch (Throwable ex) {
			logger.log(Level.DEBUG, () -> "Skipping Testcontainers, not usable: " + ex);
			return Optional.empty();
		}
		if (!docker) {
			logger.log(Level.DEBUG, "Skipping Testcontainers: no Docker engine answers");
			return Optional.empty();
		}
		try {
			TestServer server = TestcontainersSupport.startValkey();
			logger.log(Level.INFO, () -> "Using " + server);
			return Optional.of(server);
		}
		catch (VirtualMachineError ex) {
			throw ex;
		}
		catch (Throwable ex) {
			logger.log(Level.WARNING, () -> "Cannot start a " + TestcontainersSupport.IMAGE
					+ " container, falling back to a local binary: " + ex);
			return Optional.empty();
		}
	}

	private static Optional<ServerBinary> requiredOnCi(ServerFlavor flavor, Function<String, @Nullable String> env) {
		Optional<ServerBinary> binary = ServerBinary.onPath(flavor, env);
		if (binary.isEmpty() && "true".equalsIgnoreCase(env.apply("CI"))) {
			throw new IllegalStateException("CI requires " + flavor.serverExecutable() + " on PATH (or "
					+ flavor.serverVariable() + " naming it) but none was found; PATH=" + env.apply("PATH"));
		}
		return binary;
	}

	/**
	 * Return the binary that serves a flavor missing from {@code PATH} outside CI: the
	 * embedded Redis for Redis; for Valkey there is none, and the test is skipped.
	 */
	private static ServerBinary fallback(ServerFlavor flavor) {
		Optional<ServerBinary> embedded = (flavor == ServerFlavor.REDIS) ? ServerBinary.embedded() : Optional.empty();
		if (embedded.isPresent()) {
			logger.log(Level.INFO, () -> "No redis-server on PATH: using the embedded Redis");
			return embedded.get();
		}
		return MissingServer.skip(unavailable(flavor));
	}

	private static String unavailable(ServerFlavor flavor) {
		return flavor.displayName() + " is unavailable: no " + flavor.serverExecutable() + " on PATH and "
				+ flavor.serverVariable() + " unset; skipped here, required on CI (CI=true)";
	}

	private static TestServer own(ServerBinary binary, ServerOptions options, ServerSource source) {
		RedisServerProcess process = RedisServerProcess.start(binary, options);
		TestServer server = ResolvedTestServer.owned(process, source);
		logger.log(Level.INFO, () -> "Using " + server + " (" + binary.executable() + ")");
		return server;
	}

}
