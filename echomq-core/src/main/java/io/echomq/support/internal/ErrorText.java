package io.echomq.support.internal;

/**
 * The error text kept on a job row: exception class and message, capped.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public final class ErrorText {

	/** Longest text kept. */
	public static final int MAX_LENGTH = 2048;

	private static final String ELLIPSIS = "...";

	private ErrorText() {
	}

	/**
	 * Return the class name and message of an exception, capped.
	 * @param ex the exception
	 * @return the text
	 */
	public static String of(Throwable ex) {
		String message = ex.getMessage();
		String text = (message != null) ? ex.getClass().getName() + ": " + message : ex.getClass().getName();
		return cap(text);
	}

	/**
	 * Cap a text at {@link #MAX_LENGTH} characters.
	 * @param text the text
	 * @return the text, cut with an ellipsis if too long
	 */
	public static String cap(String text) {
		if (text.length() <= MAX_LENGTH) {
			return text;
		}
		int end = MAX_LENGTH - ELLIPSIS.length();
		if (Character.isHighSurrogate(text.charAt(end - 1))) {
			end--;
		}
		return text.substring(0, end) + ELLIPSIS;
	}

}
