package io.echomq.benchmark;

import java.util.Arrays;

/**
 * A growable array of {@code long} samples (nanoseconds), with nearest-rank percentiles.
 * Thread-safe.
 *
 * @author EchoMQ
 */
final class Samples {

	private long[] values = new long[1024];

	private int size;

	synchronized void add(long value) {
		if (this.size == this.values.length) {
			this.values = Arrays.copyOf(this.values, this.size * 2);
		}
		this.values[this.size++] = value;
	}

	synchronized int size() {
		return this.size;
	}

	synchronized void clear() {
		this.size = 0;
	}

	/**
	 * Return a percentile by nearest rank.
	 * @param percentile 0 to 100
	 * @return the value, or 0 if there are no samples
	 */
	synchronized long percentile(double percentile) {
		if (this.size == 0) {
			return 0;
		}
		long[] sorted = Arrays.copyOf(this.values, this.size);
		Arrays.sort(sorted);
		int rank = (int) Math.ceil(percentile / 100.0 * this.size);
		return sorted[Math.min(this.size - 1, Math.max(0, rank - 1))];
	}

	synchronized long max() {
		long max = 0;
		for (int i = 0; i < this.size; i++) {
			max = Math.max(max, this.values[i]);
		}
		return max;
	}

	/**
	 * Return the median of some values.
	 * @param values the values, not empty
	 * @return the median (the mean of the middle two for an even count)
	 */
	static double median(double[] values) {
		double[] sorted = values.clone();
		Arrays.sort(sorted);
		int middle = sorted.length / 2;
		return (sorted.length % 2 == 1) ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
	}

}
