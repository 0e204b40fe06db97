package io.echomq.actuate;

import java.time.Duration;
import java.util.Locale;

import io.echomq.QueueLimits;
import io.echomq.core.FlowLimits;
import org.jspecify.annotations.Nullable;

/**
 * Reads what a request to store or reset a queue's run-time limits names.
 *
 * @author EchoMQ
 */
final class RunTimeLimits {

	private RunTimeLimits() {
	}

	/**
	 * The rate limit a request gives, {@code null} when it gives neither value.
	 * @throws IllegalArgumentException if it gives only one of the two
	 */
	static FlowLimits.@Nullable RateLimit rate(String limitName, @Nullable Integer limit, String periodName,
			@Nullable Duration period) {
		if (limit == null && period == null) {
			return null;
		}
		if (limit == null || period == null) {
			throw new IllegalArgumentException(limitName + " and " + periodName + " go together; got only "
					+ ((limit != null) ? limitName : periodName));
		}
		return new FlowLimits.RateLimit(limit, period);
	}

	/**
	 * The limits a reset names: none for {@code all}.
	 * @throws IllegalArgumentException if a name is unknown
	 */
	static QueueLimits.Setting[] settings(String which) {
		if ("all".equals(which.trim())) {
			return new QueueLimits.Setting[0];
		}
		String[] names = which.split(",");
		QueueLimits.Setting[] settings = new QueueLimits.Setting[names.length];
		for (int i = 0; i < names.length; i++) {
			String name = names[i].trim();
			try {
				settings[i] = QueueLimits.Setting.valueOf(name.toUpperCase(Locale.ROOT).replace('-', '_'));
			}
			catch (IllegalArgumentException ex) {
				throw new IllegalArgumentException("No such limit '" + name + "' to reset; try 'all', 'max-active',"
						+ " 'rate-limit', 'lane-max-active', 'lane-rate-limit' or 'concurrency'");
			}
		}
		return settings;
	}

}
