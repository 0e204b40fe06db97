package io.echomq.core.internal;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link PartitionOutages}.
 *
 * @author EchoMQ
 */
class PartitionOutagesTests {

	@Test
	void failedPartitionIsDownForItsBackoffAndUpAfterASuccess() {
		PartitionOutages outages = new PartitionOutages(Duration.ofMinutes(1), Duration.ofMinutes(2));
		assertThat(outages.isDown("q#0")).isFalse();
		outages.failed("q#0");
		assertThat(outages.isDown("q#0")).isTrue();
		assertThat(outages.isDown("q#1")).isFalse();
		outages.succeeded("q#0");
		assertThat(outages.isDown("q#0")).isFalse();
	}

	@Test
	void partitionIsUpAgainOnceItsBackoffPassed() {
		PartitionOutages outages = new PartitionOutages(Duration.ofMillis(50), Duration.ofMillis(100));
		outages.failed("q#0");
		await().atMost(Duration.ofSeconds(5)).until(() -> !outages.isDown("q#0"));
	}

}
