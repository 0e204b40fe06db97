package io.echomq.crypto;

import java.lang.reflect.Type;
import java.util.Base64;
import java.util.Map;

import io.echomq.support.PayloadConverter;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link PayloadEncryption}.
 *
 * @author EchoMQ
 */
class PayloadEncryptionTests {

	private static final byte[] KEY_1 = key(1);

	private static final byte[] KEY_2 = key(2);

	private final PayloadEncryption encryption = new PayloadEncryption(PayloadKeys.of("v1", Map.of("v1", KEY_1)));

	@Test
	void roundTripKeepsTheTextAndHidesIt() {
		String plain = "{\"card\":\"4111 1111 1111 1111\",\"name\":\"Zoë 🙂\"}";
		String stored = this.encryption.encrypt("payments", plain);
		assertThat(stored).startsWith("emq1:v1:").doesNotContain("4111").doesNotContain("card");
		assertThat(PayloadEncryption.isEncrypted(stored)).isTrue();
		assertThat(this.encryption.decrypt("payments", stored)).isEqualTo(plain);
	}

	@Test
	void eachEncryptionUsesAFreshIv() {
		assertThat(this.encryption.encrypt("q", "same")).isNotEqualTo(this.encryption.encrypt("q", "same"));
	}

	@Test
	void storedSizeIsPrefixPlusBase64OfIvCiphertextAndTag() {
		String stored = this.encryption.encrypt("q", "x".repeat(100));
		int base64 = 4 * ((12 + 100 + 16 + 2) / 3);
		assertThat(stored).hasSize("emq1:v1:".length() + base64);
	}

	@Test
	void aValueMovedToAnotherQueueFailsAuthentication() {
		String stored = this.encryption.encrypt("payments", "secret");
		assertThatExceptionOfType(PayloadDecryptionException.class)
			.isThrownBy(() -> this.encryption.decrypt("refunds", stored))
			.withMessageContaining("queue 'refunds'")
			.withMessageContaining("fails authentication")
			.satisfies((ex) -> assertThat(ex.getVersion()).isEqualTo(KeyVersion.of("v1")));
	}

	@Test
	void aTamperedValueFailsAuthentication() {
		String stored = this.encryption.encrypt("q", "secret");
		byte[] sealed = Base64.getDecoder().decode(stored.substring("emq1:v1:".length()));
		sealed[14] ^= 1;
		String tampered = "emq1:v1:" + Base64.getEncoder().encodeToString(sealed);
		assertThatExceptionOfType(PayloadDecryptionException.class)
			.isThrownBy(() -> this.encryption.decrypt("q", tampered))
			.withMessageContaining("fails authentication");
	}

	@Test
	void anotherKeyUnderTheSameVersionFailsAuthentication() {
		String stored = this.encryption.encrypt("q", "secret");
		PayloadEncryption other = new PayloadEncryption(PayloadKeys.of("v1", Map.of("v1", KEY_2)));
		assertThatExceptionOfType(PayloadDecryptionException.class).isThrownBy(() -> other.decrypt("q", stored))
			.withMessageContaining("fails authentication");
	}

	@Test
	void rotationEncryptsWithTheCurrentVersionAndStillDecryptsOldOnes() {
		String old = this.encryption.encrypt("q", "old");
		PayloadEncryption rotated = new PayloadEncryption(PayloadKeys.of("v2", Map.of("v1", KEY_1, "v2", KEY_2)));
		String fresh = rotated.encrypt("q", "new");
		assertThat(fresh).startsWith("emq1:v2:");
		assertThat(rotated.decrypt("q", old)).isEqualTo("old");
		assertThat(rotated.decrypt("q", fresh)).isEqualTo("new");
	}

	@Test
	void anUnknownVersionNamesTheVersion() {
		PayloadEncryption rotated = new PayloadEncryption(PayloadKeys.of("v2", Map.of("v2", KEY_2)));
		String old = this.encryption.encrypt("q", "old");
		assertThatExceptionOfType(PayloadDecryptionException.class).isThrownBy(() -> rotated.decrypt("q", old))
			.withMessageContaining("needs payload key version 'v1'")
			.withMessageContaining("current version 'v2'")
			.satisfies((ex) -> assertThat(ex.getVersion()).isEqualTo(KeyVersion.of("v1")));
	}

	@Test
	void formatErrorsAreClear() {
		assertThatExceptionOfType(PayloadDecryptionException.class)
			.isThrownBy(() -> this.encryption.decrypt("q", "{\"a\":1}"))
			.withMessageContaining("is not encrypted: expected 'emq1:<key version>:<base64>'");
		assertThatExceptionOfType(PayloadDecryptionException.class)
			.isThrownBy(() -> this.encryption.decrypt("q", "emq1:v1"))
			.withMessageContaining("has no key version");
		assertThatExceptionOfType(PayloadDecryptionException.class)
			.isThrownBy(() -> this.encryption.decrypt("q", "emq1:v 1:AAAA"))
			.withMessageContaining("invalid key version");
		assertThatExceptionOfType(PayloadDecryptionException.class)
			.isThrownBy(() -> this.encryption.decrypt("q", "emq1:v1:not*base64"))
			.withMessageContaining("is not valid base64");
		assertThatExceptionOfType(PayloadDecryptionException.class)
			.isThrownBy(() -> this.encryption.decrypt("q", "emq1:v1:AAAA"))
			.withMessageContaining("is too short: 3 bytes");
	}

	@Test
	void keysAreChecked() {
		assertThatIllegalArgumentException().isThrownBy(() -> PayloadKeys.of("v1", Map.of("v1", new byte[16])))
			.withMessageContaining("must be 32 bytes (AES-256), is 16");
		assertThatIllegalArgumentException().isThrownBy(() -> PayloadKeys.of("v2", Map.of("v1", KEY_1)))
			.withMessageContaining("Current payload key version 'v2' has no key");
		assertThatIllegalArgumentException().isThrownBy(() -> PayloadKeys.ofBase64("v1", Map.of("v1", "%%%")))
			.withMessageContaining("is not base64");
		assertThatIllegalArgumentException().isThrownBy(() -> PayloadKeys.of("a:b", Map.of("a:b", KEY_1)))
			.withMessageContaining("Key version 'a:b' is not valid");
		assertThat(PayloadKeys.ofBase64("v1", Map.of("v1", Base64.getEncoder().encodeToString(KEY_1))).toString())
			.doesNotContain(Base64.getEncoder().encodeToString(KEY_1));
	}

	@Test
	void queueEncryptionLeavesOtherQueuesAndPlainTextAlone() {
		QueueEncryption queues = QueueEncryption.of(this.encryption, java.util.Set.of("payments"));
		assertThat(queues.seal("other", "text")).isEqualTo("text");
		assertThat(queues.seal("payments", "text")).startsWith("emq1:v1:");
		assertThat(queues.open("payments", "{\"before\":\"encryption\"}")).isEqualTo("{\"before\":\"encryption\"}");
		assertThat(queues.open("payments", queues.seal("payments", "text"))).isEqualTo("text");
	}

	@Test
	void theSealingConverterSealsWhatItWritesAndNeverDecryptsWhatItReads() {
		QueueEncryption queues = QueueEncryption.of(this.encryption, java.util.Set.of("payments"));
		PayloadConverter sealing = queues.sealing("payments", new TextConverter());
		assertThat(queues.open("payments", sealing.write("result"))).isEqualTo("result");
		// a payload the container already opened whose plaintext looks encrypted
		String looksEncrypted = queues.seal("payments", "inner");
		assertThat(sealing.read(looksEncrypted, String.class)).isEqualTo(looksEncrypted);
		PayloadConverter plain = new TextConverter();
		assertThat(queues.sealing("other", plain)).isSameAs(plain);
	}

	private static byte[] key(int seed) {
		byte[] key = new byte[32];
		for (int i = 0; i < key.length; i++) {
			key[i] = (byte) (seed * 31 + i);
		}
		return key;
	}

	static final class TextConverter implements PayloadConverter {

		@Override
		public String write(Object payload) {
			return payload.toString();
		}

		@Override
		public Object read(String text, Type type) {
			return text;
		}

	}

}
