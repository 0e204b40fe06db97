package io.echomq.support.internal;

import io.echomq.support.PayloadConversionException;

import java.util.Locale;

/**
 * Checks the text a {@link io.echomq.support.PayloadConverter} wrote before it is stored.
 * Redis stores bytes, and the text goes over the wire as UTF-8: an unpaired UTF-16
 * surrogate (such as {@code "a\uD800b"}) has no UTF-8 form, and Java's encoder would
 * silently store it as {@code '?'}. Such a payload is refused instead, before anything is
 * written.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public final class PayloadText {

	private PayloadText() {
	}

	/**
	 * Return the UTF-8 length of a payload's text.
	 * @param queue the queue the payload is for, for the message
	 * @param text the text
	 * @return its length in bytes once encoded as UTF-8
	 * @throws PayloadConversionException if the text has an unpaired surrogate
	 */
	public static long utf8Length(String queue, String text) {
		long bytes = 0;
		int length = text.length();
		for (int i = 0; i < length; i++) {
			char c = text.charAt(i);
			if (c < 0x80) {
				bytes += 1;
			}
			else if (c < 0x800) {
				bytes += 2;
			}
			else if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(text.charAt(i + 1))) {
				bytes += 4;
				i++;
			}
			else if (Character.isSurrogate(c)) {
				throw new PayloadConversionException("Payload for queue '" + queue + "' cannot be stored: its text has "
						+ "an unpaired UTF-16 surrogate \\u" + Integer.toHexString(c).toUpperCase(Locale.ROOT)
						+ " at index " + i + ", which has no UTF-8 form (it would be stored as '?'); nothing was "
						+ "written");
			}
			else {
				bytes += 3;
			}
		}
		return bytes;
	}

}
