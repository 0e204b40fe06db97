package io.echomq.listener;

/**
 * The error text kept on a job row: exception class and message, capped.
 *
 * @author EchoMQ
 */
final class ErrorText {

	static final int MAX_LENGTH = 2048;

	private static final String ELLIPSIS = "...";

	private ErrorText() {
	}

	static String of(Throwable ex) {
		String message = ex.getMessage();
		String text = (message != null) ? ex.getClass().getName() + ": " + message : ex.getClass().getName();
		return cap(text);
	}

	static String cap(String text) {
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
