package io.echomq.core;

/**
 * Thrown when a key of a queue that a transition would write to holds a value of the
 * wrong type (for example {@code emq:{q}:active} overwritten with a string by hand). The
 * script checks the keys it writes to before its first write, so the transition did not
 * apply at all.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class WrongKeyTypeException extends EchoMqException {

	/**
	 * Create a new exception.
	 * @param script the script that refused to run
	 * @param detail what the script found, naming the key
	 * @param cause the server's error
	 */
	public WrongKeyTypeException(String script, String detail, Throwable cause) {
		super("EchoMQ '" + script + "' refused: " + detail, cause);
	}

}
