package io.echomq.support.internal;

import io.echomq.support.PayloadConversionException;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link PayloadText}.
 *
 * @author EchoMQ
 */
class PayloadTextTests {

	@Test
	void utf8LengthShouldMatchTheEncoderForWellFormedText() {
		for (String text : List.of("", "plain", "é", "ж中", "a\uD83D\uDE00b", "\u0000\u007F\u0080\u07FF\u0800\uFFFF",
				"\uDBFF\uDFFF")) {
			assertThat(PayloadText.utf8Length("q", text)).as(text)
				.isEqualTo(text.getBytes(StandardCharsets.UTF_8).length);
		}
		Random random = new Random(26);
		for (int n = 0; n < 1000; n++) {
			StringBuilder text = new StringBuilder();
			for (int i = 0; i < 20; i++) {
				text.appendCodePoint(0x10000 + random.nextInt(0x100000));
				text.append((char) random.nextInt(0xD800));
				text.append((char) (0xE000 + random.nextInt(0x2000)));
			}
			assertThat(PayloadText.utf8Length("q", text.toString()))
				.isEqualTo(text.toString().getBytes(StandardCharsets.UTF_8).length);
		}
	}

	@Test
	void unpairedSurrogatesShouldBeRefused() {
		for (String text : List.of("a\uD800b", "\uDC00", "end \uD83D", "\uDE00\uD83D", "\uD800\uD800\uDC00")) {
			assertThatExceptionOfType(PayloadConversionException.class)
				.isThrownBy(() -> PayloadText.utf8Length("mail", text))
				.withMessageContaining("queue 'mail'")
				.withMessageContaining("unpaired UTF-16 surrogate");
		}
	}

}
