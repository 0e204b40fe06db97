package io.echomq.benchmark;

import java.util.ArrayList;
import java.util.List;

/**
 * Payloads of exactly {@value #SIZE} ASCII bytes that carry the {@link System#nanoTime()}
 * of their enqueue call, so that a handler in the same JVM can compute the
 * enqueue-to-handler latency.
 *
 * @author EchoMQ
 */
final class Payloads {

	/** The payload size in bytes. */
	static final int SIZE = 100;

	private static final String HEAD = "{\"t\":";

	private Payloads() {
	}

	/**
	 * Create a payload stamped with a time.
	 * @param nanoTime the {@link System#nanoTime()} to carry
	 * @return the payload
	 */
	static String stamped(long nanoTime) {
		String head = HEAD + nanoTime + ",\"pad\":\"";
		int pad = SIZE - head.length() - 2;
		return head + "x".repeat(Math.max(0, pad)) + "\"}";
	}

	/**
	 * Create a payload that carries no time.
	 * @return the payload
	 */
	static String plain() {
		return stamped(0);
	}

	/**
	 * Create many unstamped payloads.
	 * @param count how many
	 * @return the payloads
	 */
	static List<String> plain(int count) {
		String payload = plain();
		List<String> payloads = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			payloads.add(payload);
		}
		return payloads;
	}

	/**
	 * Read the time a payload carries.
	 * @param payload the payload
	 * @return the {@link System#nanoTime()} of its enqueue call
	 */
	static long stamp(String payload) {
		int end = payload.indexOf(',', HEAD.length());
		return Long.parseLong(payload, HEAD.length(), end, 10);
	}

}
