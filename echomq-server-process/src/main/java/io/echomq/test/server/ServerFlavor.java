package io.echomq.test.server;

/**
 * The kind of server a binary runs.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public enum ServerFlavor {

	/** Valkey, the Linux Foundation fork of Redis. */
	VALKEY("Valkey", "valkey-server", "valkey-cli", "ECHOMQ_VALKEY_SERVER"),

	/** Redis. */
	REDIS("Redis", "redis-server", "redis-cli", "ECHOMQ_REDIS_SERVER");

	private final String displayName;

	private final String serverExecutable;

	private final String cliExecutable;

	private final String serverVariable;

	ServerFlavor(String displayName, String serverExecutable, String cliExecutable, String serverVariable) {
		this.displayName = displayName;
		this.serverExecutable = serverExecutable;
		this.cliExecutable = cliExecutable;
		this.serverVariable = serverVariable;
	}

	/**
	 * Return the human-readable name, as the server prints it in {@code --version}.
	 * @return the display name, e.g. {@code Valkey}
	 */
	public String displayName() {
		return this.displayName;
	}

	/**
	 * Return the file name of the server executable.
	 * @return e.g. {@code valkey-server}
	 */
	public String serverExecutable() {
		return this.serverExecutable;
	}

	/**
	 * Return the file name of the command line client.
	 * @return e.g. {@code valkey-cli}
	 */
	public String cliExecutable() {
		return this.cliExecutable;
	}

	/**
	 * Return the environment variable that may name the server executable explicitly.
	 * @return e.g. {@code ECHOMQ_VALKEY_SERVER}
	 */
	public String serverVariable() {
		return this.serverVariable;
	}

}
