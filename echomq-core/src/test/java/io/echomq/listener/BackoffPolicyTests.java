package io.echomq.listener;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests of {@link BackoffPolicy}.
 *
 * @author EchoMQ
 */
class BackoffPolicyTests {

	@Test
	void delayGrowsExponentiallyUpToTheCap() {
		BackoffPolicy policy = new BackoffPolicy(Duration.ofSeconds(1), 2.0, Duration.ofSeconds(10), 0);
		assertThat(policy.delayFor(1)).isEqualTo(Duration.ofSeconds(1));
		assertThat(policy.delayFor(2)).isEqualTo(Duration.ofSeconds(2));
		assertThat(policy.delayFor(3)).isEqualTo(Duration.ofSeconds(4));
		assertThat(policy.delayFor(4)).isEqualTo(Duration.ofSeconds(8));
		assertThat(policy.delayFor(5)).isEqualTo(Duration.ofSeconds(10));
		assertThat(policy.delayFor(500)).isEqualTo(Duration.ofSeconds(10));
	}

	@Test
	void jitterSpreadsTheDelayWithinItsFractionAndNeverAboveTheCap() {
		BackoffPolicy policy = new BackoffPolicy(Duration.ofSeconds(1), 1.0, Duration.ofMillis(1100), 0.5);
		for (int i = 0; i < 1000; i++) {
			assertThat(policy.delayFor(3).toMillis()).isBetween(500L, 1100L);
		}
	}

	@Test
	void invalidValuesAreRejected() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new BackoffPolicy(Duration.ofSeconds(1), 0.5, Duration.ofSeconds(1), 0))
			.withMessageContaining("multiplier");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new BackoffPolicy(Duration.ofSeconds(1), 2, Duration.ofSeconds(1), 1.5))
			.withMessageContaining("jitter");
	}

}
