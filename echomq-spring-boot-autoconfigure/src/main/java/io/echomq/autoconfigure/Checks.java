package io.echomq.autoconfigure;

import java.time.Duration;

/**
 * Property checks that name the offending property.
 *
 * @author EchoMQ
 */
final class Checks {

	private Checks() {
	}

	static void positive(String property, int value) {
		if (value <= 0) {
			throw new IllegalArgumentException(property + " must be positive, was " + value);
		}
	}

	static void positive(String property, Duration value) {
		if (value == null || value.isNegative() || value.isZero()) {
			throw new IllegalArgumentException(property + " must be a positive duration, was " + value);
		}
	}

	static void notNegative(String property, int value) {
		if (value < 0) {
			throw new IllegalArgumentException(property + " must not be negative, was " + value);
		}
	}

	static void notNegative(String property, Duration value) {
		if (value == null || value.isNegative()) {
			throw new IllegalArgumentException(property + " must not be negative, was " + value);
		}
	}

}
