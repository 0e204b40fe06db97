package io.echomq.core.internal;

import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * How a job's payload is laid out in its row, as {@code scripts/includes/payload.lua}
 * writes it: a payload of up to {@value #SPLIT_MAX} bytes is cut into parts of at most
 * {@value #PART} bytes, in fields {@code payload}, {@code +2}, {@code +3}, ... (never
 * inside a UTF-8 sequence), so that a typical row keeps the server's compact listpack
 * encoding under the default {@code hash-max-listpack-value} of 64; a larger payload is
 * one {@code payload} field. Every reader joins the parts in order.
 *
 * @author EchoMQ
 * @since 0.2.0
 */
public final class RowPayload {

	/** The longest part, in bytes. */
	public static final int PART = 64;

	/** The longest payload that is cut into parts, in bytes. */
	public static final int SPLIT_MAX = 1024;

	/** The field of a payload's first (or only) part. */
	public static final String FIELD = "payload";

	private static final int MAX_PARTS = SPLIT_MAX;

	private RowPayload() {
	}

	/**
	 * Return whether a row field holds a payload or a part of one.
	 * @param field the field name
	 * @return whether it is {@code payload} or a continuation part {@code +N}
	 */
	public static boolean isPayloadField(String field) {
		return FIELD.equals(field) || partNumber(field) > 0;
	}

	/**
	 * Join the payload of a row from its fields.
	 * @param row the row's fields
	 * @return the payload, {@code null} when the row has none
	 */
	public static @Nullable String join(Map<?, ?> row) {
		Object first = row.get(FIELD);
		if (first == null) {
			return null;
		}
		Object second = row.get("+2");
		if (second == null) {
			return first.toString();
		}
		StringBuilder payload = new StringBuilder(PART * 4).append(first).append(second);
		for (int part = 3; part <= MAX_PARTS; part++) {
			Object next = row.get("+" + part);
			if (next == null) {
				break;
			}
			payload.append(next);
		}
		return payload.toString();
	}

	/**
	 * Return the part number of a continuation field, {@code +2} and up.
	 * @param field the field name
	 * @return the part number, or 0 when the field is not a continuation part
	 */
	public static int partNumber(String field) {
		int length = field.length();
		if (length < 2 || length > 5 || field.charAt(0) != '+' || field.charAt(1) == '0') {
			return 0;
		}
		int number = 0;
		for (int i = 1; i < length; i++) {
			char c = field.charAt(i);
			if (c < '0' || c > '9') {
				return 0;
			}
			number = number * 10 + (c - '0');
		}
		return (number >= 2) ? number : 0;
	}

	/**
	 * Collects a payload's parts in the order a flat reply lists them, which is not
	 * always their order.
	 */
	public static final class Parts {

		private @Nullable String first;

		private String @Nullable [] rest;

		/**
		 * Add a part.
		 * @param field its field: {@code payload} or a continuation part
		 * @param value its text
		 */
		public void add(String field, String value) {
			if (FIELD.equals(field)) {
				this.first = value;
				return;
			}
			int part = partNumber(field);
			if (this.rest == null) {
				this.rest = new String[Math.max(4, part - 1)];
			}
			else if (part - 2 >= this.rest.length) {
				this.rest = java.util.Arrays.copyOf(this.rest, Math.max(part - 1, this.rest.length * 2));
			}
			this.rest[part - 2] = value;
		}

		/**
		 * Join the parts in order.
		 * @return the payload, or {@code null} without a first part
		 */
		public @Nullable String join() {
			if (this.first == null || this.rest == null) {
				return this.first;
			}
			StringBuilder payload = new StringBuilder(this.first.length() * 2).append(this.first);
			for (String part : this.rest) {
				if (part == null) {
					break;
				}
				payload.append(part);
			}
			return payload.toString();
		}

	}

}
