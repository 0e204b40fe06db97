package io.echomq.core;

/**
 * Thrown when the server refuses a transition because it reached {@code maxmemory} (with
 * the {@code noeviction} policy). A script is refused before its first write, so the
 * transition did not apply at all.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class ServerOutOfMemoryException extends EchoMqException {

	/**
	 * Create a new exception.
	 * @param script the script that was refused
	 * @param key the first key it would have touched
	 * @param cause the server's error
	 */
	public ServerOutOfMemoryException(String script, String key, Throwable cause) {
		super("Server refused EchoMQ '" + script + "' on " + key
				+ ": out of memory (maxmemory reached; with maxmemory-policy noeviction writes are refused); "
				+ "nothing was written", cause);
	}

}
