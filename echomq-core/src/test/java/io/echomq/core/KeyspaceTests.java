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
		assertThat(this.keyspace.queueKey("mail", KeyType.PENDING)).isEqualTo("emq:{mail}:pending");
		assertThat(this.keyspace.queueKey("mail", KeyType.ACTIVE)).isEqualTo("emq:{mail}:active");
		assertThat(this.keyspace.queueKey("mail", KeyType.SCHEDULE)).isEqualTo("emq:{mail}:schedule");
		assertThat(this.keyspace.queueKey("mail", KeyType.DEAD)).isEqualTo("emq:{mail}:dead");
		assertThat(this.keyspace.queueKey("mail", KeyType.METRICS)).isEqualTo("emq:{mail}:metrics");
	}

	@Test
	void jobKeyShouldNameTheRow() {
		JobId id = JobId.mint();
		assertThat(this.keyspace.jobKey("mail", id)).isEqualTo("emq:{mail}:job:" + id);
		assertThat(this.keyspace.jobKey("mail", id.toString())).isEqualTo("emq:{mail}:job:" + id);
	}

	@Test
	void customPrefixShouldBeUsed() {
		assertThat(new Keyspace("app1").queueKey("q", KeyType.DEAD)).isEqualTo("app1:{q}:dead");
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
			.isThrownBy(() -> this.keyspace.queueKey("a{b}", KeyType.PENDING))
			.withMessageContaining("'a{b}'")
			.withMessageContaining("no braces");
		assertThatExceptionOfType(InvalidQueueNameException.class)
			.isThrownBy(() -> this.keyspace.queueKey("a:b", KeyType.PENDING))
			.withMessageContaining("'a:b'");
		assertThatExceptionOfType(InvalidQueueNameException.class)
			.isThrownBy(() -> this.keyspace.queueKey("", KeyType.PENDING))
			.withMessageContaining("1-64 characters");
		assertThatExceptionOfType(InvalidQueueNameException.class)
			.isThrownBy(() -> this.keyspace.queueKey("x".repeat(65), KeyType.PENDING))
			.withMessageContaining("was 65");
		assertThatExceptionOfType(InvalidQueueNameException.class)
			.isThrownBy(() -> this.keyspace.queueKey("with space", KeyType.PENDING));
		assertThatExceptionOfType(InvalidQueueNameException.class)
			.isThrownBy(() -> this.keyspace.queueKey(null, KeyType.PENDING));
		assertThat(this.keyspace.queueKey("ok.name_1-2", KeyType.PENDING)).isEqualTo("emq:{ok.name_1-2}:pending");
	}

	@Test
	void prefixShouldBeValidated() {
		assertThatIllegalArgumentException().isThrownBy(() -> new Keyspace("emq:x")).withMessageContaining("emq:x");
		assertThatIllegalArgumentException().isThrownBy(() -> new Keyspace(""));
	}

}
