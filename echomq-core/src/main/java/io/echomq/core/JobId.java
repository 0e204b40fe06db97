package io.echomq.core;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A branded job id: {@code JOB} followed by 22 base62 characters ({@code 0-9A-Za-z}, in
 * ASCII order) that encode a 48-bit millisecond timestamp and 80 random bits.
 * <p>
 * Ids minted by one process are strictly increasing, so the ASCII order of their string
 * forms is their mint order. Within one millisecond the random part is incremented rather
 * than redrawn, as in a monotonic ULID.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public final class JobId implements Comparable<JobId> {

	/** The brand every id starts with. */
	public static final String PREFIX = "JOB";

	/** Number of base62 digits after the brand. */
	public static final int DIGITS = 22;

	/** Total length of an id's string form. */
	public static final int LENGTH = PREFIX.length() + DIGITS;

	private static final char[] ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		.toCharArray();

	private static final long RANDOM_HIGH_MASK = 0xFFFFL;

	private static final long MAX_TIMESTAMP = (1L << 48) - 1;

	private static final long PARTITION_MASK = 0xFFL;

	private static final int PARTITION_SHIFT = 8;

	private static final SecureRandom RANDOM = new SecureRandom();

	private static final ReentrantLock LOCK = new ReentrantLock();

	private static long lastMillis = -1;

	private static long lastHigh;

	private static long lastLow;

	private final long msb;

	private final long lsb;

	private final String value;

	private JobId(long msb, long lsb) {
		this(msb, lsb, encode(msb, lsb));
	}

	private JobId(long msb, long lsb, String value) {
		this.msb = msb;
		this.lsb = lsb;
		this.value = value;
	}

	/**
	 * Mint a new id for the current time.
	 * @return a new id, greater than every id minted before it by this process
	 */
	public static JobId mint() {
		return mint(System.currentTimeMillis());
	}

	/**
	 * Derive an id from a time and a key: the same arguments always give the same id (the
	 * id of a recurring schedule's occurrence, one per schedule and fire time). Its time
	 * part is {@code time}; its random part is taken from the SHA-256 of {@code key}.
	 * @param time the time the id encodes
	 * @param key what else tells the id apart
	 * @return the id
	 */
	public static JobId derive(Instant time, String key) {
		long millis = time.toEpochMilli();
		if (millis < 0 || millis > MAX_TIMESTAMP) {
			throw new IllegalArgumentException("time must be in the 48-bit JOB id range, was " + time);
		}
		byte[] hash;
		try {
			hash = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
		long high = ((hash[0] & 0xFFL) << 8) | (hash[1] & 0xFFL);
		return new JobId((millis << 16) | high, ByteBuffer.wrap(hash, 2, 8).getLong());
	}

	/**
	 * Mint a new id for a partition of a partitioned queue: the partition replaces the
	 * top 8 of the 80 random bits, so {@link #partition()} reads it back. Ids minted by
	 * one process for one partition are strictly increasing.
	 * @param partition the partition index, 0 to 255
	 * @return a new id
	 */
	public static JobId mint(int partition) {
		if (partition < 0 || partition > PARTITION_MASK) {
			throw new IllegalArgumentException(
					"partition must be between 0 and " + PARTITION_MASK + ", was " + partition);
		}
		JobId id = mint();
		return new JobId((id.msb & ~(PARTITION_MASK << PARTITION_SHIFT)) | ((long) partition << PARTITION_SHIFT),
				id.lsb);
	}

	static JobId mint(long nowMillis) {
		LOCK.lock();
		try {
			long millis = Math.max(nowMillis, lastMillis);
			if (millis == lastMillis) {
				lastLow++;
				if (lastLow == 0) {
					lastHigh = (lastHigh + 1) & RANDOM_HIGH_MASK;
					if (lastHigh == 0) {
						millis++;
					}
				}
			}
			else {
				lastHigh = RANDOM.nextInt(1 << 16) & RANDOM_HIGH_MASK;
				lastLow = RANDOM.nextLong();
			}
			lastMillis = millis;
			if (millis > MAX_TIMESTAMP) {
				throw new IllegalStateException("Clock is beyond the 48-bit JOB id range");
			}
			return new JobId((millis << 16) | lastHigh, lastLow);
		}
		finally {
			LOCK.unlock();
		}
	}

	/**
	 * Parse the string form of an id.
	 * @param text the text to parse
	 * @return the id
	 * @throws InvalidJobIdException if the text is not a well-formed JOB id
	 */
	public static JobId parse(String text) {
		if (text == null) {
			throw new InvalidJobIdException("null", "must not be null");
		}
		if (text.length() != LENGTH) {
			throw new InvalidJobIdException(text, "must be " + LENGTH + " characters ('" + PREFIX + "' + " + DIGITS
					+ " base62), was " + text.length());
		}
		if (!text.startsWith(PREFIX)) {
			throw new InvalidJobIdException(text, "must start with '" + PREFIX + "'");
		}
		// four 32-bit limbs (l0 most significant) in locals: this runs for every id a
		// claim reads
		long l0 = 0;
		long l1 = 0;
		long l2 = 0;
		long l3 = 0;
		for (int i = PREFIX.length(); i < LENGTH; i++) {
			int digit = digit(text.charAt(i));
			if (digit < 0) {
				throw new InvalidJobIdException(text,
						"character '" + text.charAt(i) + "' at index " + i + " is not base62 (0-9A-Za-z)");
			}
			long cur = l3 * 62 + digit;
			l3 = cur & 0xFFFFFFFFL;
			cur = l2 * 62 + (cur >>> 32);
			l2 = cur & 0xFFFFFFFFL;
			cur = l1 * 62 + (cur >>> 32);
			l1 = cur & 0xFFFFFFFFL;
			cur = l0 * 62 + (cur >>> 32);
			l0 = cur & 0xFFFFFFFFL;
			if ((cur >>> 32) != 0) {
				throw new InvalidJobIdException(text, "value is beyond 128 bits");
			}
		}
		// the text was just validated digit by digit: it is the canonical form, no need
		// to re-encode it
		return new JobId((l0 << 32) | l1, (l2 << 32) | l3, text);
	}

	/**
	 * Return whether the text is a well-formed JOB id.
	 * @param text the text to check
	 * @return {@code true} if {@link #parse(String)} would accept it
	 */
	public static boolean isValid(String text) {
		if (text == null || text.length() != LENGTH || !text.startsWith(PREFIX)) {
			return false;
		}
		for (int i = PREFIX.length(); i < LENGTH; i++) {
			if (digit(text.charAt(i)) < 0) {
				return false;
			}
		}
		// 22 base62 digits reach past 128 bits only from the first digit on: the full
		// check decides
		return text.charAt(PREFIX.length()) < '7' || isParsable(text);
	}

	private static boolean isParsable(String text) {
		try {
			parse(text);
			return true;
		}
		catch (InvalidJobIdException ex) {
			return false;
		}
	}

	/**
	 * Return the mint time encoded in this id.
	 * @return the timestamp, millisecond precision
	 */
	public Instant timestamp() {
		return Instant.ofEpochMilli(this.msb >>> 16);
	}

	/**
	 * Return the partition this id was minted for ({@link #mint(int)}). Meaningful only
	 * for a job of a partitioned queue: in any other id these bits are random.
	 * @return the partition index, 0 to 255
	 */
	public int partition() {
		return (int) ((this.msb >>> PARTITION_SHIFT) & PARTITION_MASK);
	}

	@Override
	public int compareTo(JobId other) {
		int result = Long.compareUnsigned(this.msb, other.msb);
		return (result != 0) ? result : Long.compareUnsigned(this.lsb, other.lsb);
	}

	@Override
	public boolean equals(Object obj) {
		return (obj instanceof JobId other) && this.msb == other.msb && this.lsb == other.lsb;
	}

	@Override
	public int hashCode() {
		return Long.hashCode(this.msb) * 31 + Long.hashCode(this.lsb);
	}

	@Override
	public String toString() {
		return this.value;
	}

	private static int digit(char c) {
		if (c >= '0' && c <= '9') {
			return c - '0';
		}
		if (c >= 'A' && c <= 'Z') {
			return c - 'A' + 10;
		}
		if (c >= 'a' && c <= 'z') {
			return c - 'a' + 36;
		}
		return -1;
	}

	private static String encode(long msb, long lsb) {
		char[] out = new char[LENGTH];
		PREFIX.getChars(0, PREFIX.length(), out, 0);
		long p0 = msb >>> 32;
		long p1 = msb & 0xFFFFFFFFL;
		long p2 = lsb >>> 32;
		long p3 = lsb & 0xFFFFFFFFL;
		for (int i = LENGTH - 1; i >= PREFIX.length(); i--) {
			// divide the unsigned 128-bit (p0:p1:p2:p3) by 62, 32 bits at a time
			long cur = p0;
			p0 = cur / 62;
			cur = ((cur % 62) << 32) | p1;
			p1 = cur / 62;
			cur = ((cur % 62) << 32) | p2;
			p2 = cur / 62;
			cur = ((cur % 62) << 32) | p3;
			p3 = cur / 62;
			out[i] = ALPHABET[(int) (cur % 62)];
		}
		return new String(out);
	}

}
