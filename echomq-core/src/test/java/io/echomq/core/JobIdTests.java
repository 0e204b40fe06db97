package io.echomq.core;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link JobId}.
 *
 * @author EchoMQ
 */
class JobIdTests {

	@Test
	void mintShouldBeBrandedBase62OfFixedLength() {
		String id = JobId.mint().toString();
		assertThat(id).hasSize(25).startsWith("JOB").matches("JOB[0-9A-Za-z]{22}");
	}

	@Test
	void mintShouldBeMonotonicAndAsciiOrderShouldBeMintOrder() {
		List<String> ids = new ArrayList<>();
		for (int i = 0; i < 50_000; i++) {
			ids.add(JobId.mint().toString());
		}
		List<String> sorted = new ArrayList<>(ids);
		sorted.sort(String::compareTo);
		assertThat(sorted).isEqualTo(ids);
		assertThat(ids).doesNotHaveDuplicates();
	}

	@Test
	void mintInOneMillisecondShouldIncrementAndStayOrdered() {
		long now = System.currentTimeMillis() + 10_000;
		JobId first = JobId.mint(now);
		JobId second = JobId.mint(now);
		JobId earlierClock = JobId.mint(now - 5_000);
		assertThat(second).isGreaterThan(first);
		assertThat(earlierClock).isGreaterThan(second);
		assertThat(second.toString()).isGreaterThan(first.toString());
	}

	@Test
	void parseShouldRoundTripAndKeepTimestamp() {
		JobId id = JobId.mint();
		JobId parsed = JobId.parse(id.toString());
		assertThat(parsed).isEqualTo(id).hasSameHashCodeAs(id);
		assertThat(parsed.toString()).isEqualTo(id.toString());
		assertThat(parsed.timestamp().toEpochMilli()).isCloseTo(System.currentTimeMillis(),
				org.assertj.core.data.Offset.offset(60_000L));
	}

	@Test
	void parseShouldRoundTripExtremes() {
		assertThat(JobId.parse("JOB0000000000000000000000").toString()).isEqualTo("JOB0000000000000000000000");
		for (int i = 0; i < 1000; i++) {
			StringBuilder text = new StringBuilder("JOB");
			text.append((char) ('0' + ThreadLocalRandom.current().nextInt(7)));
			for (int d = 1; d < 22; d++) {
				text.append("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
					.charAt(ThreadLocalRandom.current().nextInt(62)));
			}
			assertThat(JobId.parse(text.toString()).toString()).isEqualTo(text.toString());
		}
	}

	@Test
	void parseShouldRejectWrongLength() {
		assertThatExceptionOfType(InvalidJobIdException.class).isThrownBy(() -> JobId.parse("JOB123"))
			.withMessageContaining("'JOB123'")
			.withMessageContaining("25 characters");
	}

	@Test
	void parseShouldRejectTruncatedId() {
		String id = JobId.mint().toString();
		assertThatExceptionOfType(InvalidJobIdException.class)
			.isThrownBy(() -> JobId.parse(id.substring(0, id.length() - 1)))
			.withMessageContaining(id.substring(0, id.length() - 1));
	}

	@Test
	void parseShouldRejectWrongBrand() {
		assertThatExceptionOfType(InvalidJobIdException.class)
			.isThrownBy(() -> JobId.parse("JOX" + JobId.mint().toString().substring(3)))
			.withMessageContaining("must start with 'JOB'");
	}

	@Test
	void parseShouldRejectNonBase62() {
		String forged = JobId.mint().toString().substring(0, 24) + "}";
		assertThatExceptionOfType(InvalidJobIdException.class).isThrownBy(() -> JobId.parse(forged))
			.withMessageContaining("'}' at index 24");
	}

	@Test
	void parseShouldRejectValuesBeyond128Bits() {
		assertThatExceptionOfType(InvalidJobIdException.class)
			.isThrownBy(() -> JobId.parse("JOBzzzzzzzzzzzzzzzzzzzzzz"))
			.withMessageContaining("beyond 128 bits");
	}

	@Test
	void parseShouldRejectNull() {
		assertThatExceptionOfType(InvalidJobIdException.class).isThrownBy(() -> JobId.parse(null))
			.withMessageContaining("must not be null");
		assertThat(JobId.isValid(null)).isFalse();
	}

	@Test
	void parseShouldKeepTheTextItValidated() {
		String text = JobId.mint().toString();
		assertThat(JobId.parse(text).toString()).isSameAs(text);
	}

	@Test
	void isValidShouldAgreeWithParseAtThe128BitEdge() {
		// 2^128 - 1 is the largest id; one more is beyond 128 bits
		assertThat(JobId.isValid("JOB7n42DGM5Tflk9n8mt7Fhc7")).isTrue();
		assertThat(JobId.parse("JOB7n42DGM5Tflk9n8mt7Fhc7").toString()).isEqualTo("JOB7n42DGM5Tflk9n8mt7Fhc7");
		assertThat(JobId.isValid("JOB7n42DGM5Tflk9n8mt7Fhc8")).isFalse();
		assertThat(JobId.isValid("JOB6zzzzzzzzzzzzzzzzzzzzz")).isTrue();
		assertThat(JobId.isValid("JOB8000000000000000000000")).isFalse();
		assertThat(JobId.isValid("JOB000000000000000000000}")).isFalse();
		assertThat(JobId.isValid("JOX0000000000000000000000")).isFalse();
		assertThat(JobId.isValid("JOB000")).isFalse();
	}

}
