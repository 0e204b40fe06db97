package io.echomq.test.server;

/**
 * An error reply ({@code -ERR ...}) from a Redis or Valkey server.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class RespErrorException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	/**
	 * Create an exception for the given error reply.
	 * @param message the error line as the server sent it, without the leading {@code -}
	 */
	public RespErrorException(String message) {
		super(message);
	}

	/**
	 * Return the error code, the first word of the reply.
	 * @return e.g. {@code ERR}, {@code MOVED} or {@code LOADING}
	 */
	public String code() {
		String message = getMessage();
		int space = message.indexOf(' ');
		return (space < 0) ? message : message.substring(0, space);
	}

	@Override
	public String getMessage() {
		String message = super.getMessage();
		return (message != null) ? message : "";
	}

}
