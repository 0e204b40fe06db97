package io.echomq.core;

/**
 * Thrown when a string is not a well-formed branded JOB id.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class InvalidJobIdException extends EchoMqException {

	private final String input;

	/**
	 * Create a new exception for the given input.
	 * @param input the rejected input
	 * @param reason why it was rejected
	 */
	public InvalidJobIdException(String input, String reason) {
		super("Invalid JOB id '" + abbreviate(input) + "': " + reason);
		this.input = input;
	}

	/**
	 * Return the rejected input.
	 * @return the input
	 */
	public String getInput() {
		return this.input;
	}

	private static String abbreviate(String input) {
		return (input.length() <= 64) ? input : input.substring(0, 64) + "...";
	}

}
