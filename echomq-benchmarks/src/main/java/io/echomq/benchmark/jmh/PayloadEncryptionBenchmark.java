package io.echomq.benchmark.jmh;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.echomq.crypto.PayloadEncryption;
import io.echomq.crypto.PayloadKeys;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Client-side CPU of an encrypted queue, no server: AES-256-GCM encryption of a 100-byte
 * payload text (what the producer adds per job), its decryption (what the consumer adds),
 * and both. The stored size is printed by {@link #main}.
 *
 * @author EchoMQ
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PayloadEncryptionBenchmark {

	/** A 100-byte JSON payload text. */
	static final String PAYLOAD = "{\"order\":\"ord-000000000001\",\"sku\":\"sku-0001\",\"quantity\":3,\"customer\":\"cus-0000000001\",\"note\":\"abcd\"}";

	private final PayloadEncryption encryption = new PayloadEncryption(
			PayloadKeys.of("v1", Map.of("v1", new byte[32])));

	private final String stored = this.encryption.encrypt("bench", PAYLOAD);

	/**
	 * Encrypt the payload.
	 * @return the stored text
	 */
	@Benchmark
	public String encrypt() {
		return this.encryption.encrypt("bench", PAYLOAD);
	}

	/**
	 * Decrypt a stored payload.
	 * @return the payload text
	 */
	@Benchmark
	public String decrypt() {
		return this.encryption.decrypt("bench", this.stored);
	}

	/**
	 * Encrypt then decrypt, a job's whole cost.
	 * @return the payload text
	 */
	@Benchmark
	public String encryptThenDecrypt() {
		return this.encryption.decrypt("bench", this.encryption.encrypt("bench", PAYLOAD));
	}

	/**
	 * Print the stored size of the 100-byte payload.
	 * @param args ignored
	 */
	public static void main(String[] args) {
		PayloadEncryptionBenchmark benchmark = new PayloadEncryptionBenchmark();
		System.out.println("payload " + PAYLOAD.length() + " bytes, stored " + benchmark.stored.length() + " bytes");
	}

}
