package io.echomq.autoconfigure;

import java.time.Duration;
import java.util.Map;

import io.echomq.schedule.MisfirePolicy;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Configuration properties of EchoMQ's recurring schedules: the declared schedules under
 * {@code echomq.schedules.<name>} and the tick under {@code echomq.schedule}.
 *
 * @param schedules Recurring schedules declared by configuration, by schedule name.
 * @param schedule The schedule tick.
 * @author EchoMQ
 * @since 0.1.0
 */
@ConfigurationProperties("echomq")
public record EchoMqScheduleProperties(@Nullable Map<String, Schedule> schedules, @DefaultValue Tick schedule) {

	/**
	 * Normalize the properties.
	 * @param schedules The declared schedules.
	 * @param schedule The tick.
	 */
	public EchoMqScheduleProperties {
		schedules = (schedules != null) ? Map.copyOf(schedules) : Map.of();
	}

	/**
	 * A recurring schedule declared by configuration. It is validated when the
	 * application starts; an invalid one fails the start-up.
	 *
	 * @param queue Queue the occurrences are enqueued to.
	 * @param cron Cron expression with seconds (or a macro such as {@code @daily});
	 * exactly one of cron and every.
	 * @param every Fixed interval between fire times; exactly one of cron and every.
	 * @param zone Time zone of the cron expression.
	 * @param payload Payload of each occurrence, a string.
	 * @param enabled Whether the schedule is declared; a disabled one is removed from the
	 * store at start-up.
	 * @param misfire What to do about fire times missed while no node ran: skip them, or
	 * run once for all of them.
	 */
	public record Schedule(@Nullable String queue, @Nullable String cron, @Nullable Duration every,
			@DefaultValue("UTC") String zone, @DefaultValue("") String payload, @DefaultValue("true") boolean enabled,
			@DefaultValue("skip") MisfirePolicy misfire) {

	}

	/**
	 * The schedule tick, which every node runs.
	 *
	 * @param enabled Whether this node runs the schedule tick and puts the declared
	 * schedules in the store at start-up.
	 * @param interval Delay between two ticks.
	 * @param misfireThreshold How late a fire time may be and still fire on time; an
	 * older one was missed and follows the schedule's misfire policy.
	 */
	public record Tick(@DefaultValue("true") boolean enabled, @DefaultValue("1s") Duration interval,
			@DefaultValue("1m") Duration misfireThreshold) {

		/**
		 * Validate the tick.
		 * @param enabled Whether the tick runs.
		 * @param interval The interval.
		 * @param misfireThreshold The threshold.
		 */
		public Tick {
			Checks.positive("echomq.schedule.interval", interval);
			Checks.notNegative("echomq.schedule.misfire-threshold", misfireThreshold);
		}

	}

}
