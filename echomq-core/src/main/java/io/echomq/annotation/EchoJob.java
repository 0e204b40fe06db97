package io.echomq.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.aot.hint.annotation.Reflective;

/**
 * Marks a bean method as the handler of an EchoMQ queue. The method takes the payload (at
 * most one parameter, read from JSON into the parameter's generic type), and may also
 * take a {@link io.echomq.listener.JobContext} or the
 * {@link io.echomq.listener.ReceivedJob}, in any position. Its return value is ignored.
 * Returning completes the job; throwing fails the attempt (retried with backoff, then
 * dead-lettered); an unreadable payload dead-letters the job at once.
 * <p>
 * Every attribute is a String that accepts {@code ${...}} placeholders and {@code #{...}}
 * SpEL expressions. An empty attribute inherits, first from
 * {@code echomq.queues.<queue>.*}, then from {@code echomq.listener.*}. A queue has at
 * most one listener per application; a second one, or a method with an unusable
 * signature, fails the start-up with a message that names the method.
 * <p>
 * Can be used as a meta-annotation.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
@Target({ ElementType.METHOD, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Reflective
public @interface EchoJob {

	/**
	 * The queue to consume: 1-64 characters of {@code [A-Za-z0-9._-]}.
	 * @return the queue name
	 */
	String queue();

	/**
	 * The listener id, unique in the application; the queue name by default.
	 * @return the id
	 */
	String id() default "";

	/**
	 * How many jobs run at once, e.g. {@code "4"}.
	 * @return the concurrency
	 */
	String concurrency() default "";

	/**
	 * How long a claim leases a job, renewed every third of it while the handler runs:
	 * {@code "30s"}, {@code "PT30S"}, or milliseconds ({@code "30000"}).
	 * @return the lease
	 */
	String lease() default "";

	/**
	 * A cap on attempts: a failure of attempt {@code maxAttempts} or later dead-letters
	 * the job even if the producer gave it more. The producer's budget (fixed at enqueue)
	 * applies when empty; {@code echomq.*.max-attempts} properties set that budget, they
	 * do not cap listeners.
	 * @return the cap
	 */
	String maxAttempts() default "";

	/**
	 * The backoff after the first failed attempt, e.g. {@code "1s"}.
	 * @return the initial backoff
	 */
	String backoffInitial() default "";

	/**
	 * The backoff growth factor per further attempt, at least 1, e.g. {@code "2.0"}.
	 * @return the multiplier
	 */
	String backoffMultiplier() default "";

	/**
	 * The longest backoff, e.g. {@code "5m"}.
	 * @return the cap
	 */
	String backoffMax() default "";

	/**
	 * The fraction of the backoff randomly added or removed, 0 to 1, e.g. {@code "0.2"}.
	 * @return the jitter
	 */
	String backoffJitter() default "";

	/**
	 * Whether the listener starts with the application context: {@code "true"} or
	 * {@code "false"}.
	 * @return the flag
	 */
	String autoStartup() default "";

	/**
	 * The only exceptions a failed attempt is retried for; any other failure dead-letters
	 * the job at once. Matched against the whole cause chain. Empty (the default)
	 * inherits {@code echomq.queues.<queue>.retry-for}, then
	 * {@code echomq.listener.retry-for}; when all are empty every exception is retried
	 * unless {@link #noRetryFor()} names it.
	 * @return the exception types
	 */
	Class<? extends Throwable>[] retryFor() default {};

	/**
	 * Exceptions that dead-letter the job at once instead of being retried, matched
	 * against the whole cause chain (a {@code NonRetryableJobException} always does).
	 * Empty (the default) inherits {@code echomq.queues.<queue>.no-retry-for}, then
	 * {@code echomq.listener.no-retry-for}.
	 * @return the exception types
	 */
	Class<? extends Throwable>[] noRetryFor() default {};

	/**
	 * How long the handler may run before its thread is interrupted and the attempt
	 * counts as failed ({@code JobTimeoutException}), e.g. {@code 30s}; a job's own
	 * timeout (set at enqueue) wins. Empty (the default) inherits
	 * {@code echomq.queues.<queue>.timeout}, then {@code echomq.listener.timeout}; no
	 * timeout when none is set. Supports {@code ${...}} placeholders.
	 * @return the timeout
	 */
	String timeout() default "";

}
