package io.echomq.schedule;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;

import org.jspecify.annotations.Nullable;

import org.springframework.scheduling.support.CronExpression;
import org.springframework.util.StringUtils;

/**
 * When a recurring schedule fires: a cron expression in a time zone (Spring's
 * {@link CronExpression}: six fields with seconds, or a macro such as {@code @daily}), or
 * a fixed interval.
 * <p>
 * Cron times are wall-clock times of the zone. When clocks go back, a wall-clock time
 * that occurs twice fires once, at its first occurrence; when clocks go forward, a time
 * inside the gap fires once, moved forward by the length of the gap (02:30 becomes 03:30
 * when 02:00 jumps to 03:00), and a time the move lands on fires once. Spring's own
 * {@code CronExpression.next(ZonedDateTime)} would fire the repeated hour twice and skip
 * the missing one.
 *
 * @param cron the cron expression, or {@code null} for a fixed interval
 * @param every the fixed interval, or {@code null} for a cron schedule
 * @param zone the time zone of the cron expression
 * @param misfire what to do about fire times missed while no node ran the tick
 * @author EchoMQ
 * @since 0.1.0
 */
public record ScheduleSpec(@Nullable String cron, @Nullable Duration every, ZoneId zone, MisfirePolicy misfire) {

	/**
	 * Validate the spec.
	 * @param cron the cron expression
	 * @param every the interval
	 * @param zone the zone
	 * @param misfire the misfire policy
	 * @throws InvalidScheduleException naming the bad value
	 */
	public ScheduleSpec {
		if (zone == null) {
			throw new InvalidScheduleException("Schedule time zone must not be null");
		}
		if (misfire == null) {
			throw new InvalidScheduleException("Schedule misfire policy must not be null");
		}
		if (StringUtils.hasText(cron) == (every != null)) {
			throw new InvalidScheduleException(
					"A schedule needs exactly one of cron and every, was cron=" + cron + ", every=" + every);
		}
		if (cron != null) {
			cron = cron.trim();
			try {
				CronExpression.parse(cron);
			}
			catch (IllegalArgumentException ex) {
				throw new InvalidScheduleException("Invalid cron expression '" + cron + "': " + ex.getMessage(), ex);
			}
		}
		if (every != null && (every.isNegative() || every.isZero() || every.toMillis() == 0)) {
			throw new InvalidScheduleException("Schedule interval 'every' must be at least 1ms, was " + every);
		}
	}

	/**
	 * Return a cron schedule in a zone, skipping missed runs.
	 * @param cron the expression
	 * @param zone the zone
	 * @return the spec
	 */
	public static ScheduleSpec cron(String cron, ZoneId zone) {
		return new ScheduleSpec(cron, null, zone, MisfirePolicy.SKIP);
	}

	/**
	 * Return a cron schedule in UTC, skipping missed runs.
	 * @param cron the expression
	 * @return the spec
	 */
	public static ScheduleSpec cron(String cron) {
		return cron(cron, ZoneOffset.UTC);
	}

	/**
	 * Return a fixed-interval schedule, skipping missed runs.
	 * @param every the interval
	 * @return the spec
	 */
	public static ScheduleSpec every(Duration every) {
		return new ScheduleSpec(null, every, ZoneOffset.UTC, MisfirePolicy.SKIP);
	}

	/**
	 * Return a copy with another misfire policy.
	 * @param misfire the policy
	 * @return the copy
	 */
	public ScheduleSpec withMisfire(MisfirePolicy misfire) {
		return new ScheduleSpec(this.cron, this.every, this.zone, misfire);
	}

	/**
	 * Parse a time zone id with a clear error.
	 * @param zone the id, e.g. {@code Europe/Paris}
	 * @return the zone
	 * @throws InvalidScheduleException if the id names no zone
	 */
	public static ZoneId zone(String zone) {
		try {
			return ZoneId.of(zone);
		}
		catch (DateTimeException ex) {
			throw new InvalidScheduleException("Unknown time zone '" + zone + "': " + ex.getMessage(), ex);
		}
	}

	/**
	 * Return the first fire time strictly after {@code after}.
	 * @param after the instant
	 * @return the next fire time, or {@code null} if the cron expression never fires
	 * again
	 */
	public @Nullable Instant nextAfter(Instant after) {
		if (this.every != null) {
			return after.plus(this.every);
		}
		CronExpression expression = CronExpression.parse(this.cron);
		LocalDateTime local = LocalDateTime.ofInstant(after, this.zone);
		while (true) {
			LocalDateTime next = expression.next(local);
			if (next == null) {
				return null;
			}
			// a time in a gap resolves to the end of the gap, an overlap to its first
			// offset
			Instant instant = ZonedDateTime.ofLocal(next, this.zone, null).toInstant();
			if (instant.isAfter(after)) {
				return instant;
			}
			local = next;
		}
	}

	/**
	 * Return the first fire time strictly after {@code after} that is also after
	 * {@code notBefore} (for jumping over times that passed).
	 * @param after the last fire time
	 * @param notBefore the instant the next fire time must follow
	 * @return the next fire time, or {@code null} if there is none
	 */
	public @Nullable Instant nextAfter(Instant after, Instant notBefore) {
		Instant from = after.isAfter(notBefore) ? after : notBefore;
		if (this.every != null) {
			long periods = Duration.between(after, from).toMillis() / this.every.toMillis();
			Instant next = after.plus(this.every.multipliedBy(periods + 1));
			return next.isAfter(from) ? next : next.plus(this.every);
		}
		return nextAfter(from);
	}

}
