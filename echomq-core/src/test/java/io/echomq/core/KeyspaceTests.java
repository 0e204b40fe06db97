package io.echomq.core;

import io.echomq.core.internal.KeyType;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link Keyspace}.
 *
 * @author EchoMQ
 */
class KeyspaceTests {

	private final Keyspace keyspace = Keyspace.defaults();

	@Test
	void queueKeysShouldCarryTheHashTag() {
		assertThat(this.keyspace.queueKey("mail", KeyType.PENDING.suffix())).isEqualTo("emq:{mail}:pending");
		assertThat(this.keyspace.queueKey("mail", KeyType.ACTIVE.suffix())).isEqualTo("emq:{mail}:active");
		assertThat(this.keyspace.queueKey("mail", KeyType.SCHEDULE.suffix())).isEqualTo("emq:{mail}:schedule");
		assertThat(this.keyspace.queueKey("mail", KeyType.DEAD.suffix())).isEqualTo("emq:{mail}:dead");
		assertThat(this.keyspace.queueKey("mail", KeyType.METRICS.suffix())).isEqualTo("emq:{mail}:metrics");
	}

	@Test
	void jobKeyShouldNameTheRow() {
		JobId id = JobId.mint();
		assertThat(this.keyspace.jobKey("mail", id)).isEqualTo("emq:{mail}:job:" + id);
		assertThat(this.keyspace.jobKey("mail", id.toString())).isEqualTo("emq:{mail}:job:" + id);
	}

	@Test
	void customPrefixShouldBeUsed() {
		assertThat(new Keyspace("app1").queueKey("q", KeyType.DEAD.suffix())).isEqualTo("app1:{q}:dead");
	}

	@Test
	void jobKeyShouldRejectForgedId() {
		assertThatExceptionOfType(InvalidJobIdException.class)
			.isThrownBy(() -> this.keyspace.jobKey("mail", "JOB}:pending"))
			.withMessageContaining("JOB}:pending");
	}

	@Test
	void queueNamesShouldBeValidated() {
		assertThatExceptionOfType(InvalidQueueNameException.class)
			.isThrownBy(() -> this.keyspace.queueKey("a{b}", KeyType.PENDING.suffix()))
			.withMessageContaining("'a{b}'")
			.withMessageContaining("no braces");
		assertThatExceptionOfType(InvalidQueueNameException.class)
			.isThrownBy(() -> this.keyspace.queueKey("a:b", KeyType.PENDING.suffix()))
			.withMessageContaining("'a:b'");
		assertThatExceptionOfType(InvalidQueueNameException.class)
			.isThrownBy(() -> this.keyspace.queueKey("", KeyType.PENDING.suffix()))
			.withMessageContaining("1-64 characters");
		assertThatExceptionOfType(InvalidQueueNameException.class)
			.isThrownBy(() -> this.keyspace.queueKey("x".repeat(65), KeyType.PENDING.suffix()))
			.withMessageContaining("was 65");
		assertThatExceptionOfType(InvalidQueueNameException.class)
			.isThrownBy(() -> this.keyspace.queueKey("with space", KeyType.PENDING.suffix()));
		assertThatExceptionOfType(InvalidQueueNameException.class)
			.isThrownBy(() -> this.keyspace.queueKey(null, KeyType.PENDING.suffix()));
		assertThat(this.keyspace.queueKey("ok.name_1-2", KeyType.PENDING.suffix()))
			.isEqualTo("emq:{ok.name_1-2}:pending");
	}

	@Test
	void prefixShouldBeValidated() {
		assertThatIllegalArgumentException().isThrownBy(() -> new Keyspace("emq:x")).withMessageContaining("emq:x");
		assertThatIllegalArgumentException().isThrownBy(() -> new Keyspace(""));
	}

}
