package io.echomq.schedule;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

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
 * @param maxCatchUp how many missed times {@link MisfirePolicy#CATCH_UP} fires at most
 * ({@value #DEFAULT_CATCH_UP} by default)
 * @param overlap what a fire time does while the previous occurrence's job is live
 * @param start the first instant the schedule may fire at, or {@code null} for none
 * @param end the last instant the schedule may fire at, or {@code null} for none
 * @author EchoMQ
 * @since 0.1.0
 */
public record ScheduleSpec(@Nullable String cron, @Nullable Duration every, ZoneId zone, MisfirePolicy misfire,
		int maxCatchUp, OverlapPolicy overlap, @Nullable Instant start, @Nullable Instant end) {

	/**
	 * Missed times {@link MisfirePolicy#CATCH_UP} fires at most, unless told otherwise.
	 */
	public static final int DEFAULT_CATCH_UP = 3;

	/** The most missed times {@link MisfirePolicy#CATCH_UP} may be told to fire. */
	public static final int MAX_CATCH_UP = 1000;

	/**
	 * Cron fire times a catch-up walks at most to find the most recent missed ones; past
	 * that, the missed times are skipped.
	 */
	static final int CATCH_UP_WALK = 100_000;

	/**
	 * Validate the spec.
	 * @param cron the cron expression
	 * @param every the interval
	 * @param zone the zone
	 * @param misfire the misfire policy
	 * @param maxCatchUp the most missed times a catch-up fires, 1 to
	 * {@value #MAX_CATCH_UP}
	 * @param overlap the overlap policy
	 * @param start the first instant it may fire at, or {@code null}
	 * @param end the last instant it may fire at, or {@code null}
	 * @throws InvalidScheduleException naming the bad value
	 */
	public ScheduleSpec {
		if (zone == null) {
			throw new InvalidScheduleException("Schedule time zone must not be null");
		}
		if (misfire == null) {
			throw new InvalidScheduleException("Schedule misfire policy must not be null");
		}
		if (overlap == null) {
			throw new InvalidScheduleException("Schedule overlap policy must not be null");
		}
		if (maxCatchUp < 1 || maxCatchUp > MAX_CATCH_UP) {
			throw new InvalidScheduleException(
					"Schedule catch-up count must be 1 to " + MAX_CATCH_UP + ", was " + maxCatchUp);
		}
		if (start != null && end != null && end.isBefore(start)) {
			throw new InvalidScheduleException("Schedule end " + end + " is before its start " + start);
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
		if (start != null) {
			start = start.truncatedTo(ChronoUnit.MILLIS);
		}
		if (end != null) {
			end = end.truncatedTo(ChronoUnit.MILLIS);
		}
	}

	/**
	 * Create a spec that overlaps, catches up {@value #DEFAULT_CATCH_UP} times under
	 * {@link MisfirePolicy#CATCH_UP}, and has no start or end.
	 * @param cron the cron expression
	 * @param every the interval
	 * @param zone the zone
	 * @param misfire the misfire policy
	 * @throws InvalidScheduleException naming the bad value
	 */
	public ScheduleSpec(@Nullable String cron, @Nullable Duration every, ZoneId zone, MisfirePolicy misfire) {
		this(cron, every, zone, misfire, DEFAULT_CATCH_UP, OverlapPolicy.ALLOW, null, null);
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
		return new ScheduleSpec(this.cron, this.every, this.zone, misfire, this.maxCatchUp, this.overlap, this.start,
				this.end);
	}

	/**
	 * Return a copy that catches up missed times: {@link MisfirePolicy#CATCH_UP} with at
	 * most {@code maxCatchUp} of the most recent missed times fired.
	 * @param maxCatchUp the most missed times fired, 1 to {@value #MAX_CATCH_UP}
	 * @return the copy
	 */
	public ScheduleSpec withCatchUp(int maxCatchUp) {
		return new ScheduleSpec(this.cron, this.every, this.zone, MisfirePolicy.CATCH_UP, maxCatchUp, this.overlap,
				this.start, this.end);
	}

	/**
	 * Return a copy with another overlap policy.
	 * @param overlap the policy
	 * @return the copy
	 */
	public ScheduleSpec withOverlap(OverlapPolicy overlap) {
		return new ScheduleSpec(this.cron, this.every, this.zone, this.misfire, this.maxCatchUp, overlap, this.start,
				this.end);
	}

	/**
	 * Return a copy that fires at no time before {@code start}. An interval schedule
	 * fires first at {@code start} itself.
	 * @param start the first instant it may fire at, or {@code null} for none
	 * @return the copy
	 */
	public ScheduleSpec withStart(@Nullable Instant start) {
		return new ScheduleSpec(this.cron, this.every, this.zone, this.misfire, this.maxCatchUp, this.overlap, start,
				this.end);
	}

	/**
	 * Return a copy that fires at no time after {@code end}; then it stays in the store
	 * with no next fire time until removed.
	 * @param end the last instant it may fire at, or {@code null} for none
	 * @return the copy
	 */
	public ScheduleSpec withEnd(@Nullable Instant end) {
		return new ScheduleSpec(this.cron, this.every, this.zone, this.misfire, this.maxCatchUp, this.overlap,
				this.start, end);
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
	 * Return the first fire time strictly after {@code after}, not before the start and
	 * not after the end.
	 * @param after the instant
	 * @return the next fire time, or {@code null} if the schedule never fires again
	 */
	public @Nullable Instant nextAfter(Instant after) {
		if (this.start != null && after.isBefore(this.start)) {
			return bounded((this.every != null) ? this.start : unboundedNext(this.start.minusMillis(1)));
		}
		return bounded(unboundedNext(after));
	}

	/**
	 * Return the first fire time strictly after {@code after} that is also after
	 * {@code notBefore} (for jumping over times that passed), not before the start and
	 * not after the end.
	 * @param after the last fire time
	 * @param notBefore the instant the next fire time must follow
	 * @return the next fire time, or {@code null} if there is none
	 */
	public @Nullable Instant nextAfter(Instant after, Instant notBefore) {
		Instant from = after.isAfter(notBefore) ? after : notBefore;
		if (this.start != null && from.isBefore(this.start)) {
			return nextAfter(from);
		}
		if (this.every != null) {
			long periods = Duration.between(after, from).toMillis() / this.every.toMillis();
			Instant next = after.plus(this.every.multipliedBy(periods + 1));
			return bounded(next.isAfter(from) ? next : next.plus(this.every));
		}
		return bounded(unboundedNext(from));
	}

	/**
	 * Return the most recent fire times from {@code due} to {@code now} (both included),
	 * oldest first, at most {@link #maxCatchUp()} of them: what a catch-up fires.
	 * @param due the first missed fire time
	 * @param now the time of the tick
	 * @return the times, empty when {@code due} is after {@code now}, or when a cron walk
	 * would pass {@value #CATCH_UP_WALK} times
	 */
	public List<Instant> recentTimes(Instant due, Instant now) {
		Deque<Instant> recent = new ArrayDeque<>();
		if (due.isAfter(now)) {
			return List.of();
		}
		if (this.every != null) {
			long periods = Duration.between(due, now).toMillis() / this.every.toMillis();
			long first = Math.max(0, periods - this.maxCatchUp + 1);
			for (long p = first; p <= periods; p++) {
				Instant time = due.plus(this.every.multipliedBy(p));
				if (this.end != null && time.isAfter(this.end)) {
					break;
				}
				recent.add(time);
			}
			return List.copyOf(recent);
		}
		Instant time = due;
		for (int steps = 0; time != null && !time.isAfter(now); steps++) {
			if (steps == CATCH_UP_WALK) {
				return List.of();
			}
			recent.add(time);
			if (recent.size() > this.maxCatchUp) {
				recent.removeFirst();
			}
			time = nextAfter(time);
		}
		return List.copyOf(recent);
	}

	private @Nullable Instant bounded(@Nullable Instant next) {
		return (next == null || (this.end != null && next.isAfter(this.end))) ? null : next;
	}

	private @Nullable Instant unboundedNext(Instant after) {
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

}
