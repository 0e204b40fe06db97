package io.echomq.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.echomq.core.Experimental;
import io.echomq.schedule.MisfirePolicy;
import io.echomq.schedule.OverlapPolicy;
import io.echomq.schedule.ScheduleSpec;

/**
 * Declares a recurring schedule: at each fire time one job is enqueued to
 * {@link #queue()}, on exactly one node of those running the application.
 * <p>
 * A method that returns a value gives the payload: it is called at each fire time, before
 * the occurrence is enqueued, by each node that ticks it (only one node's value is
 * enqueued, so keep it free of side effects). A {@code void} method gives no payload: the
 * constant {@link #payload()} is used, and the method is never called.
 * <p>
 * The schedule is put in the store at start-up; one removed from the code is removed from
 * the store at the next start-up. String attributes accept {@code ${...}} placeholders.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface EchoSchedule {

	/**
	 * The queue the occurrences go to.
	 * @return the queue name
	 */
	String queue();

	/**
	 * The schedule name, unique within the queue; the class's simple name and the method
	 * name ({@code ReportJobs.nightly}) by default.
	 * @return the name
	 */
	String name() default "";

	/**
	 * A cron expression (Spring's {@code CronExpression}: six fields with seconds, or a
	 * macro such as {@code @daily}); exactly one of this and {@link #every()}.
	 * @return the expression
	 */
	String cron() default "";

	/**
	 * A fixed interval ({@code 10s}, {@code PT10S}); exactly one of this and
	 * {@link #cron()}.
	 * @return the interval
	 */
	String every() default "";

	/**
	 * The time zone of the cron expression; UTC by default.
	 * @return the zone id
	 */
	String zone() default "";

	/**
	 * The constant payload, a string, when the method returns nothing.
	 * @return the payload
	 */
	String payload() default "";

	/**
	 * What to do about fire times missed while no node ran.
	 * @return the policy
	 */
	MisfirePolicy misfire() default MisfirePolicy.SKIP;

	/**
	 * How many of the most recent missed times {@link MisfirePolicy#CATCH_UP} fires;
	 * {@code 0} (the default) for {@link ScheduleSpec#DEFAULT_CATCH_UP}.
	 * @return the count, 0 or 1 to {@link ScheduleSpec#MAX_CATCH_UP}
	 * @since 0.5.0
	 */
	@Experimental
	int catchUp() default 0;

	/**
	 * What a fire time does while the previous occurrence's job is still pending or
	 * running.
	 * @return the policy
	 * @since 0.5.0
	 */
	@Experimental
	OverlapPolicy overlap() default OverlapPolicy.ALLOW;

	/**
	 * The first instant the schedule may fire at, ISO-8601
	 * ({@code 2026-06-01T00:00:00Z}); none by default.
	 * @return the instant
	 * @since 0.5.0
	 */
	@Experimental
	String start() default "";

	/**
	 * The last instant the schedule may fire at, ISO-8601; none by default.
	 * @return the instant
	 * @since 0.5.0
	 */
	@Experimental
	String end() default "";

}
