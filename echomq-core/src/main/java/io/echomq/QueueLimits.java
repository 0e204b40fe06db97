package io.echomq;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.echomq.core.FlowLimits;
import io.echomq.core.FlowLimits.RateLimit;
import org.jspecify.annotations.Nullable;

/**
 * A queue's limits as configured (the properties) and as stored at run time through
 * {@link EchoMqAdmin#setLimits}: a stored value wins over the configured one, on every
 * node, from its next claim after the write returned (the listener concurrency as
 * {@link EchoMqAdmin#setConcurrency} says); a value not stored is the configured one, and
 * {@link EchoMqAdmin#resetLimits} deletes stored values so that the configuration applies
 * again. The queue-wide cap and rate are the whole queue's: each partition of a
 * partitioned queue enforces its share, as it does of configured limits.
 *
 * @param queue the queue
 * @param configured the limits the configuration gives, {@link FlowLimits#none()} when
 * not known
 * @param configuredConcurrency the listener concurrency the configuration gives, or
 * {@code null} when not known
 * @param stored the limits stored at run time (a {@code null} component is not stored)
 * @param storedConcurrency the listener concurrency stored at run time, or {@code null}
 * @author EchoMQ
 * @since 0.5.0
 */
public record QueueLimits(String queue, FlowLimits configured, @Nullable Integer configuredConcurrency,
		FlowLimits stored, @Nullable Integer storedConcurrency) {

	/**
	 * Return the limits claims apply: each stored value, else the configured one.
	 * @return the effective limits
	 */
	public FlowLimits effective() {
		return new FlowLimits(pick(this.stored.maxActive(), this.configured.maxActive()),
				pick(this.stored.rateLimit(), this.configured.rateLimit()),
				pick(this.stored.laneMaxActive(), this.configured.laneMaxActive()),
				pick(this.stored.laneRateLimit(), this.configured.laneRateLimit()));
	}

	/**
	 * Return the listener concurrency that applies: the stored one, else the configured
	 * one.
	 * @return the effective concurrency, or {@code null} when neither is known
	 */
	public @Nullable Integer effectiveConcurrency() {
		return pick(this.storedConcurrency, this.configuredConcurrency);
	}

	private static <T> @Nullable T pick(@Nullable T stored, @Nullable T configured) {
		return (stored != null) ? stored : configured;
	}

	static Map<String, String> fields(FlowLimits limits) {
		Map<String, String> fields = new LinkedHashMap<>();
		if (limits.maxActive() != null) {
			fields.put("max_active", Integer.toString(limits.maxActive()));
		}
		if (limits.rateLimit() != null) {
			fields.put("rate", Integer.toString(limits.rateLimit().limit()));
			fields.put("period", Long.toString(limits.rateLimit().period().toMillis()));
		}
		if (limits.laneMaxActive() != null) {
			fields.put("lane_max_active", Integer.toString(limits.laneMaxActive()));
		}
		if (limits.laneRateLimit() != null) {
			fields.put("lane_rate", Integer.toString(limits.laneRateLimit().limit()));
			fields.put("lane_period", Long.toString(limits.laneRateLimit().period().toMillis()));
		}
		return fields;
	}

	static List<String> fields(Setting... settings) {
		List<String> fields = new ArrayList<>(settings.length);
		for (Setting setting : settings) {
			fields.add(setting.field());
		}
		return fields;
	}

	static FlowLimits storedLimits(Map<String, String> fields) {
		return new FlowLimits(number(fields, "max_active"), rate(fields, "rate", "period"),
				number(fields, "lane_max_active"), rate(fields, "lane_rate", "lane_period"));
	}

	static @Nullable Integer number(Map<String, String> fields, String field) {
		String value = fields.get(field);
		if (value == null) {
			return null;
		}
		try {
			int number = Integer.parseInt(value);
			return (number > 0) ? number : null;
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

	private static @Nullable RateLimit rate(Map<String, String> fields, String rate, String period) {
		Integer limit = number(fields, rate);
		Integer ms = number(fields, period);
		return (limit != null && ms != null) ? new RateLimit(limit, Duration.ofMillis(ms)) : null;
	}

	/**
	 * A rate limit and its period as a request names them, which go together: both or
	 * neither.
	 * @param limitName what the request calls the limit, for the message
	 * @param limit the most starts per period, or {@code null}
	 * @param periodName what the request calls the period, for the message
	 * @param period the period, or {@code null}
	 * @return the rate limit, or {@code null} when neither is given
	 * @throws IllegalArgumentException if only one is given, or one is out of range
	 * @since 0.5.0
	 */
	public static @Nullable RateLimit rateLimit(String limitName, @Nullable Integer limit, String periodName,
			@Nullable Duration period) {
		if (limit == null && period == null) {
			return null;
		}
		if (limit == null || period == null) {
			throw new IllegalArgumentException(limitName + " and " + periodName + " go together; got only "
					+ ((limit != null) ? limitName : periodName) + "; nothing was written");
		}
		return new RateLimit(limit, period);
	}

	/**
	 * A limit that can be stored and reset at run time.
	 */
	public enum Setting {

		/** The most jobs of the queue active at once across every node. */
		MAX_ACTIVE("max_active"),

		/** The most jobs of the queue started per period. */
		RATE_LIMIT("rate"),

		/** The most jobs of one lane active at once across every node. */
		LANE_MAX_ACTIVE("lane_max_active"),

		/** The most jobs of one lane started per period. */
		LANE_RATE_LIMIT("lane_rate"),

		/** How many handlers each listener container of the queue runs at once. */
		CONCURRENCY("concurrency");

		private final String field;

		Setting(String field) {
			this.field = field;
		}

		/**
		 * Return the field of the queue's limits hash this setting is stored in.
		 * @return the field name
		 */
		public String field() {
			return this.field;
		}

		/**
		 * The settings a reset request names: {@code all}, or a comma-separated list of
		 * {@code max-active}, {@code rate-limit}, {@code lane-max-active},
		 * {@code lane-rate-limit} and {@code concurrency}.
		 * @param which the request's list
		 * @return the settings named, none for {@code all} (every setting)
		 * @throws IllegalArgumentException if a name is unknown
		 * @since 0.5.0
		 */
		public static Setting[] parse(String which) {
			if ("all".equals(which.trim())) {
				return new Setting[0];
			}
			String[] names = which.split(",");
			Setting[] settings = new Setting[names.length];
			for (int i = 0; i < names.length; i++) {
				String name = names[i].trim();
				try {
					settings[i] = valueOf(name.toUpperCase(Locale.ROOT).replace('-', '_'));
				}
				catch (IllegalArgumentException ex) {
					throw new IllegalArgumentException("No such limit '" + name + "' to reset; try 'all', 'max-active',"
							+ " 'rate-limit', 'lane-max-active', 'lane-rate-limit' or 'concurrency'");
				}
			}
			return settings;
		}

	}

}
