package io.echomq.benchmark;

import java.util.Locale;

/**
 * One machine-readable result line: the median of the runs, then their minimum and
 * maximum, such as <pre>
 * BENCH figure=drain.listener.c16 value=15234 unit=jobs/s server=valkey-8.0.1 runs=5 median min=14800 max=15900
 * </pre>
 *
 * @param figure the figure name
 * @param median the median over the runs
 * @param unit the unit
 * @param server the server label
 * @param runs how many runs
 * @param min the lowest value
 * @param max the highest value
 * @author EchoMQ
 */
record ResultLine(String figure, double median, String unit, String server, int runs, double min, double max) {

	/** What every result line starts with. */
	static final String PREFIX = "BENCH ";

	/** A regular expression that every result line matches. */
	static final String PATTERN = "BENCH figure=[a-z0-9_.]+ value=-?[0-9]+(\\.[0-9]+)? unit=\\S+ server=\\S+ "
			+ "runs=[0-9]+ median min=-?[0-9]+(\\.[0-9]+)? max=-?[0-9]+(\\.[0-9]+)?";

	@Override
	public String toString() {
		return PREFIX + "figure=" + this.figure + " value=" + format(this.median) + " unit=" + this.unit + " server="
				+ this.server + " runs=" + this.runs + " median min=" + format(this.min) + " max=" + format(this.max);
	}

	/**
	 * Format a value with a precision that suits its size, never in exponent form.
	 * @param value the value
	 * @return the text
	 */
	static String format(double value) {
		double magnitude = Math.abs(value);
		String pattern;
		if (magnitude >= 1_000) {
			pattern = "%.0f";
		}
		else if (magnitude >= 100) {
			pattern = "%.1f";
		}
		else if (magnitude >= 1) {
			pattern = "%.2f";
		}
		else {
			pattern = "%.4f";
		}
		return String.format(Locale.ROOT, pattern, value);
	}

}
