package io.echomq.support.internal;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests of {@link ErrorText}.
 *
 * @author EchoMQ
 */
class ErrorTextTests {

	@Test
	void errorTextIsClassAndMessage() {
		assertThat(ErrorText.of(new IllegalStateException("bad"))).isEqualTo("java.lang.IllegalStateException: bad");
		assertThat(ErrorText.of(new StackOverflowError())).isEqualTo("java.lang.StackOverflowError");
	}

	@Test
	void longTextIsCapped() {
		String text = ErrorText.of(new IllegalStateException("x".repeat(10_000)));
		assertThat(text).hasSize(ErrorText.MAX_LENGTH).endsWith("...");
	}

}
