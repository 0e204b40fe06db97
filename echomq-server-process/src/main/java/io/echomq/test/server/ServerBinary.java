package io.echomq.test.server;

import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * A Redis or Valkey server executable and the version it reports.
 *
 * @param executable the executable file
 * @param flavor the kind of server it runs
 * @param version the version it reports, e.g. {@code 8.0.1}
 * @author EchoMQ
 * @since 0.1.0
 */
public record ServerBinary(Path executable, ServerFlavor flavor, String version) {

	private static final System.Logger logger = System.getLogger(ServerBinary.class.getName());

	/**
	 * Find a server of the given flavor: the file named by the flavor's
	 * {@linkplain ServerFlavor#serverVariable() variable} if that is set, else the first
	 * executable on {@code PATH} that reports this flavor.
	 * @param flavor the flavor to find
	 * @return the binary, or empty if there is none
	 * @throws IllegalStateException if the variable names a file that is not a working
	 * server executable
	 */
	public static Optional<ServerBinary> onPath(ServerFlavor flavor) {
		return onPath(flavor, System::getenv);
	}

	/**
	 * Find a server of the given flavor, reading variables from the given environment.
	 * @param flavor the flavor to find
	 * @param env the environment, e.g. {@code System::getenv}
	 * @return the binary, or empty if there is none
	 * @throws IllegalStateException if the variable names a file that is not a working
	 * server executable
	 * @see #onPath(ServerFlavor)
	 */
	public static Optional<ServerBinary> onPath(ServerFlavor flavor, Function<String, @Nullable String> env) {
		String explicit = env.apply(flavor.serverVariable());
		if (explicit != null && !explicit.isBlank()) {
			return Optional.of(explicit(flavor, Path.of(explicit.strip())));
		}
		for (Path candidate : ExecutableSearch.onPath(flavor.serverExecutable(), env)) {
			Optional<VersionProbe.Result> probed = VersionProbe.probe(candidate);
			if (probed.isPresent() && probed.get().flavor() == flavor) {
				return Optional.of(new ServerBinary(candidate, flavor, probed.get().version()));
			}
			logger.log(Level.DEBUG, () -> "Skipping " + candidate + ": it does not report itself as "
					+ flavor.displayName() + " (" + probed.map(Object::toString).orElse("no version") + ")");
		}
		return Optional.empty();
	}

	/**
	 * Extract the Redis binary shipped inside the
	 * {@code com.github.codemonstur:embedded-redis} jar into a temporary file that is
	 * deleted when the JVM exits.
	 * @return the binary, or empty if that jar is not on the class path or ships no
	 * binary for this platform
	 */
	public static Optional<ServerBinary> embedded() {
		return EmbeddedRedisBinary.extract();
	}

	/**
	 * Find any server: Valkey on {@code PATH}, then Redis on {@code PATH}, then the
	 * embedded Redis binary.
	 * @return the binary
	 * @throws IllegalStateException if none is available
	 */
	public static ServerBinary locate() {
		return locate(System::getenv);
	}

	/**
	 * Find any server, reading variables from the given environment.
	 * @param env the environment, e.g. {@code System::getenv}
	 * @return the binary
	 * @throws IllegalStateException if none is available
	 * @see #locate()
	 */
	public static ServerBinary locate(Function<String, @Nullable String> env) {
		List<String> tried = new ArrayList<>();
		for (ServerFlavor flavor : ServerFlavor.values()) {
			Optional<ServerBinary> found = onPath(flavor, env);
			if (found.isPresent()) {
				return found.get();
			}
			tried.add(flavor.serverExecutable() + " on PATH (" + flavor.serverVariable() + " unset)");
		}
		Optional<ServerBinary> embedded = embedded();
		if (embedded.isPresent()) {
			return embedded.get();
		}
		tried.add("embedded-redis resource "
				+ EmbeddedRedisBinary.currentResourceName().orElse("<none for this platform>") + " on the class path");
		throw new IllegalStateException("No Redis or Valkey server binary found. Tried: " + String.join(", ", tried)
				+ ". PATH=" + ExecutableSearch.describePath(env) + ". Install valkey-server, set "
				+ ServerFlavor.VALKEY.serverVariable()
				+ ", or add com.github.codemonstur:embedded-redis to the class path.");
	}

	/**
	 * Return a short description for messages, e.g.
	 * {@code valkey-server 8.0.1 (/usr/bin/valkey-server)}.
	 * @return the description
	 */
	public String describe() {
		return this.flavor.serverExecutable() + " " + this.version + " (" + this.executable + ")";
	}

	private static ServerBinary explicit(ServerFlavor flavor, Path executable) {
		if (!Files.isRegularFile(executable) || !Files.isExecutable(executable)) {
			throw new IllegalStateException(
					flavor.serverVariable() + "=" + executable + " does not name an executable file");
		}
		VersionProbe.Result probed = VersionProbe.probe(executable)
			.orElseThrow(() -> new IllegalStateException(
					flavor.serverVariable() + "=" + executable + " does not print a server version for --version"));
		ServerFlavor reported = probed.flavor();
		if (reported != null && reported != flavor) {
			logger.log(Level.WARNING, () -> flavor.serverVariable() + "=" + executable + " reports itself as "
					+ reported.displayName() + "; using it as " + reported.displayName());
			return new ServerBinary(executable, reported, probed.version());
		}
		return new ServerBinary(executable, flavor, probed.version());
	}

}
