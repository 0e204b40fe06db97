package io.echomq.actuate;

import java.time.Duration;
import java.util.Set;
import java.util.function.Supplier;

import io.echomq.actuate.JobDescriptors.CancelDescriptor;
import io.echomq.actuate.JobDescriptors.ReplayDescriptor;
import io.echomq.core.InvalidJobIdException;
import io.echomq.core.InvalidPartitionException;
import io.echomq.core.InvalidQueueNameException;
import io.echomq.schedule.InvalidScheduleException;
import io.echomq.schedule.UnknownScheduleException;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.log.LogAccessor;
import org.springframework.util.Assert;

/**
 * Web extension of the {@link EchoMqEndpoint}:
 * <ul>
 * <li>{@code GET /echomq/queues/{queue}}: one queue;</li>
 * <li>{@code GET /echomq/queues/{queue}/dead?offset=&limit=}: a page of dead jobs, their
 * payloads shown as {@code show-values} allows;</li>
 * <li>{@code GET /echomq/queues/{queue}/audit}: an audit of the queue's keyspace;</li>
 * <li>{@code GET /echomq/queues/{queue}/jobs/{id}}: one job, its payload and progress
 * object shown as {@code show-values} allows;</li>
 * <li>{@code GET /echomq/queues/{queue}/jobs/{id}/result}: a completed job's stored
 * result, shown as {@code show-values} allows;</li>
 * <li>{@code GET /echomq/queues/{queue}/jobs/{id}/flow}: the whole flow the job belongs
 * to, from its root, each result shown as {@code show-values} allows;</li>
 * <li>{@code GET /echomq/queues/{queue}/batches}: the queue's open and sealed batches;
 * {@code GET /echomq/queues/{queue}/batches/{id}}: one batch, its counts and
 * callbacks;</li>
 * <li>{@code POST /echomq/queues/{queue}/pause} and {@code .../resume}: the listener of
 * this application; with {@code scope=cluster}, the queue on every node (a flag in its
 * keyspace), and for a pause an optional {@code duration} ({@code 30s},
 * {@code PT1M});</li>
 * <li>{@code GET /echomq/queues/{queue}/lanes/{lane}}: one lane's controls (paused,
 * pending cap) and pending jobs;</li>
 * <li>{@code POST /echomq/queues/{queue}/lanes/{lane}/pause}, {@code .../resume},
 * {@code .../cap} (with {@code cap}, at least 1) and {@code .../uncap}: one lane on every
 * node;</li>
 * <li>{@code GET /echomq/queues/{queue}/limits}: the queue's limits as configured here
 * and as stored at run time; {@code POST /echomq/queues/{queue}/limits} with
 * {@code maxActive}, {@code rateLimit} and {@code period}, {@code laneMaxActive},
 * {@code laneRateLimit} and {@code lanePeriod}, {@code concurrency}, or {@code reset}:
 * store or reset them cluster-wide;</li>
 * <li>{@code POST /echomq/queues/{queue}/dead/{id}/replay}: replay a dead job;</li>
 * <li>{@code POST /echomq/queues/{queue}/jobs/{id}/cancel}: cancel a job in any
 * state;</li>
 * <li>{@code DELETE /echomq/queues/{queue}/dead}: purge the dead jobs;</li>
 * <li>{@code GET /echomq/schedules}: the recurring schedules with their last and next
 * fire time;</li>
 * <li>{@code POST /echomq/schedules/{queue}/{name}/trigger}: enqueue an occurrence of a
 * schedule now;</li>
 * <li>{@code POST /echomq/schedules/{queue}/{name}/pause} and {@code .../resume}: pause a
 * schedule on every node until resumed (kept across restarts and deploys), or resume
 * it;</li>
 * <li>{@code DELETE /echomq/schedules/{queue}/{name}}: delete a schedule.</li>
 * </ul>
 * A malformed queue name, job id or page answers 400, an unknown queue, listener, job or
 * schedule 404, a job that is not dead 409; each with a message.
 * <p>
 * Every {@code POST} takes a JSON body ({@code Content-Type: application/json};
 * {@code {}} will do, and it may carry the operation's parameters and a {@code reason},
 * logged with the write). A page on another site cannot send that without a CORS
 * preflight, which the actuator refuses unless
 * {@code management.endpoints.web.cors.allowed-origins} names that site; a bare
 * {@code POST}, or one with a form or text body (what a page can send without a
 * preflight), answers 415 and changes nothing. {@code DELETE} always needs a preflight.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
@EndpointWebExtension(endpoint = EchoMqEndpoint.class)
public class EchoMqEndpointWebExtension {

	/** Dead jobs on a page unless {@code limit} says otherwise. */
	public static final int DEFAULT_PAGE = 20;

	private static final int STATUS_CONFLICT = 409;

	private static final String QUEUES = "queues";

	private static final String DEAD = "dead";

	private static final String SCHEDULES = "schedules";

	private static final String LIMITS = "limits";

	private static final LogAccessor logger = new LogAccessor(EchoMqEndpointWebExtension.class);

	private final EchoMqEndpoint delegate;

	private final Show showValues;

	private final Set<String> roles;

	/**
	 * Create an extension.
	 * @param delegate the endpoint
	 * @param showValues when payloads are shown unsanitized
	 * @param roles the roles that may see them when {@link Show#WHEN_AUTHORIZED}
	 */
	public EchoMqEndpointWebExtension(EchoMqEndpoint delegate, Show showValues, Set<String> roles) {
		Assert.notNull(delegate, "'delegate' must not be null");
		Assert.notNull(showValues, "'showValues' must not be null");
		this.delegate = delegate;
		this.showValues = showValues;
		this.roles = Set.copyOf(roles);
	}

	/**
	 * Return one queue.
	 * @param queues must be {@code queues}
	 * @param queue the queue
	 * @return the queue, 404 if unknown
	 */
	@ReadOperation
	public WebEndpointResponse<Object> queue(@Selector String queues, @Selector String queue) {
		if (!QUEUES.equals(queues)) {
			return notFound("No such resource '" + queues + "'; try 'queues'");
		}
		return handle(() -> this.delegate.queue(queue), () -> "Queue '" + queue + "' is not known here");
	}

	/**
	 * Return a page of a queue's dead jobs, an audit of the queue, or its open and sealed
	 * batches.
	 * @param securityContext the security context
	 * @param queues must be {@code queues}
	 * @param queue the queue
	 * @param detail {@code dead}, {@code audit} or {@code batches}
	 * @param offset how many dead jobs to skip, 0 by default
	 * @param limit the page size, {@value #DEFAULT_PAGE} by default
	 * @return the page or audit
	 */
	@ReadOperation
	public WebEndpointResponse<Object> queueDetail(SecurityContext securityContext, @Selector String queues,
			@Selector String queue, @Selector String detail, @Nullable Integer offset, @Nullable Integer limit) {
		if (!QUEUES.equals(queues)) {
			return notFound("No such resource '" + queues + "'; try 'queues'");
		}
		if (DEAD.equals(detail)) {
			boolean show = this.showValues.isShown(securityContext, this.roles);
			return handle(() -> this.delegate.dead(queue, (offset != null) ? offset : 0,
					(limit != null) ? limit : DEFAULT_PAGE, show), () -> "");
		}
		if ("audit".equals(detail)) {
			return handle(() -> this.delegate.audit(queue), () -> "");
		}
		if ("batches".equals(detail)) {
			return handle(() -> this.delegate.batches(queue), () -> "");
		}
		if (LIMITS.equals(detail)) {
			return handle(() -> RunTimeLimits.read(this.delegate.admin(), queue), () -> "");
		}
		return notFound("No such resource '" + detail + "'; try 'dead', 'audit', 'batches' or 'limits'");
	}

	/**
	 * Pause or resume a queue's listener, or the queue cluster-wide.
	 * @param queues must be {@code queues}
	 * @param queue the queue
	 * @param action {@code pause} or {@code resume}
	 * @param scope {@code cluster} for the queue on every node, else ({@code null} or
	 * {@code listener}) this application's listener
	 * @param duration how long a cluster-wide pause lasts, {@code null} until resumed
	 * @param reason why, logged with the write, or {@code null}
	 * @return the listener, 404 if the queue has none here; or the queue's pause
	 */
	public WebEndpointResponse<Object> control(@Selector String queues, @Selector String queue, @Selector String action,
			@Nullable String scope, @Nullable String duration, @Nullable String reason) {
		return control(queues, queue, action, scope, duration, reason, null, null, null, null, null, null, null, null);
	}

	/**
	 * Pause or resume a queue's listener, or the queue cluster-wide ({@code pause},
	 * {@code resume}); or store or reset the queue's run-time limits ({@code limits}):
	 * each limit given is stored cluster-wide and wins over the configured one on every
	 * node from its next claim (the concurrency within about a second), and {@code reset}
	 * deletes stored limits so that the configured ones apply again.
	 * @param queues must be {@code queues}
	 * @param queue the queue
	 * @param action {@code pause}, {@code resume} or {@code limits}
	 * @param scope {@code cluster} for the queue on every node, else ({@code null} or
	 * {@code listener}) this application's listener
	 * @param duration how long a cluster-wide pause lasts, {@code null} until resumed
	 * @param reason why, logged with the write, or {@code null}
	 * @param maxActive ({@code limits}) the most jobs active at once across every node
	 * @param rateLimit ({@code limits}) the most jobs started per {@code period}
	 * @param period ({@code limits}) the rate limit's window ({@code 1s}, {@code PT1M})
	 * @param laneMaxActive ({@code limits}) the most jobs of one lane active at once
	 * @param laneRateLimit ({@code limits}) the most jobs of one lane started per
	 * {@code lanePeriod}
	 * @param lanePeriod ({@code limits}) the lane rate limit's window
	 * @param concurrency ({@code limits}) the handlers each listener container runs at
	 * once
	 * @param reset ({@code limits}) {@code all}, or a comma-separated list of
	 * {@code max-active}, {@code rate-limit}, {@code lane-max-active},
	 * {@code lane-rate-limit} and {@code concurrency}, reset before any value given is
	 * stored
	 * @return the listener, 404 if the queue has none here; the queue's pause; or its
	 * limits, 400 (nothing written) for a value out of range, a rate without its period
	 * or an unknown limit to reset
	 * @since 0.5.0
	 */
	@WriteOperation
	public WebEndpointResponse<Object> control(@Selector String queues, @Selector String queue, @Selector String action,
			@Nullable String scope, @Nullable String duration, @Nullable String reason, @Nullable Integer maxActive,
			@Nullable Integer rateLimit, @Nullable String period, @Nullable Integer laneMaxActive,
			@Nullable Integer laneRateLimit, @Nullable String lanePeriod, @Nullable Integer concurrency,
			@Nullable String reset) {
		if (!QUEUES.equals(queues)) {
			return notFound("No such resource '" + queues + "'; try 'queues'");
		}
		if (LIMITS.equals(action)) {
			log("limits" + describe("maxActive", maxActive) + describe("rateLimit", rateLimit)
					+ describe("period", period) + describe("laneMaxActive", laneMaxActive)
					+ describe("laneRateLimit", laneRateLimit) + describe("lanePeriod", lanePeriod)
					+ describe("concurrency", concurrency) + describe("reset", reset), queue, reason);
			return handle(() -> {
				boolean values = maxActive != null || rateLimit != null || period != null || laneMaxActive != null
						|| laneRateLimit != null || lanePeriod != null || concurrency != null;
				Object after = (reset != null) ? RunTimeLimits.reset(this.delegate.admin(), queue, reset) : null;
				return (values || after == null) ? RunTimeLimits.store(this.delegate.admin(), queue, maxActive,
						rateLimit, duration(period), laneMaxActive, laneRateLimit, duration(lanePeriod), concurrency)
						: after;
			}, () -> "");
		}
		log(action + " (scope " + ((scope != null) ? scope : "listener") + ")", queue, reason);
		if ("cluster".equals(scope)) {
			return switch (action) {
				case "pause" -> handle(() -> this.delegate.pauseQueue(queue,
						(duration != null) ? DurationStyle.detectAndParse(duration) : null), () -> "");
				case "resume" -> handle(() -> this.delegate.resumeQueue(queue), () -> "");
				default -> notFound("No such action '" + action + "'; try 'pause', 'resume' or 'limits'");
			};
		}
		if (scope != null && !"listener".equals(scope)) {
			return error(WebEndpointResponse.STATUS_BAD_REQUEST,
					"No such scope '" + scope + "'; try 'cluster' or 'listener'");
		}
		Supplier<String> noListener = () -> "Queue '" + queue + "' has no listener in this application";
		return switch (action) {
			case "pause" -> handle(() -> this.delegate.pause(queue), noListener);
			case "resume" -> handle(() -> this.delegate.resume(queue), noListener);
			default -> notFound("No such action '" + action + "'; try 'pause', 'resume' or 'limits'");
		};
	}

	private static String describe(String name, @Nullable Object value) {
		return (value != null) ? " " + name + "=" + value : "";
	}

	private static @Nullable Duration duration(@Nullable String text) {
		return (text != null) ? DurationStyle.detectAndParse(text) : null;
	}

	/**
	 * Replay a dead job ({@code dead/{id}/replay}), cancel a job in any state
	 * ({@code jobs/{id}/cancel}), or pause, resume, cap or limit a lane cluster-wide
	 * ({@code lanes/{lane}/pause}, {@code resume}, {@code cap}, {@code uncap},
	 * {@code limit}, {@code unlimit}).
	 * @param queues must be {@code queues}
	 * @param queue the queue
	 * @param collection {@code dead}, {@code jobs} or {@code lanes}
	 * @param id the job id, or the lane key
	 * @param action {@code replay} (with {@code dead}), {@code cancel} (with
	 * {@code jobs}), or {@code pause}, {@code resume}, {@code cap}, {@code uncap},
	 * {@code limit} or {@code unlimit} (with {@code lanes})
	 * @param cap the lane's pending cap for {@code cap}, else {@code null}
	 * @param maxActive the lane's own max-active for {@code limit}, else {@code null}
	 * @param rateLimit the lane's own rate for {@code limit} (with {@code period}), else
	 * {@code null}
	 * @param period the window of {@code rateLimit} (such as {@code 1s}), else
	 * {@code null}
	 * @param reason why, logged with the write, or {@code null}
	 * @return the outcome: for a replay 404 if the queue has no such job, 409 if it is
	 * not dead; for a cancel what it did, 404 if the job is finished or unknown, 409 if
	 * it was refused; for a lane its controls after the change, 400 for a bad lane key,
	 * cap or limit
	 */
	@WriteOperation
	public WebEndpointResponse<Object> jobAction(@Selector String queues, @Selector String queue,
			@Selector String collection, @Selector String id, @Selector String action, @Nullable Long cap,
			@Nullable Integer maxActive, @Nullable Integer rateLimit, @Nullable String period,
			@Nullable String reason) {
		return act(queues, queue, collection, id, action, new LaneActions.Values(cap, maxActive, rateLimit, period),
				reason);
	}

	/**
	 * Replay a dead job or cancel a job, as
	 * {@link #jobAction(String, String, String, String, String, Long, Integer, Integer, String, String)}
	 * does with no lane values.
	 * @param queues must be {@code queues}
	 * @param queue the queue
	 * @param collection {@code dead}, {@code jobs} or {@code lanes}
	 * @param id the job id, or the lane key
	 * @param action the action
	 * @param reason why, logged with the write, or {@code null}
	 * @return the outcome
	 */
	public WebEndpointResponse<Object> jobAction(String queues, String queue, String collection, String id,
			String action, @Nullable String reason) {
		return act(queues, queue, collection, id, action, LaneActions.Values.NONE, reason);
	}

	private WebEndpointResponse<Object> act(String queues, String queue, String collection, String id, String action,
			LaneActions.Values values, @Nullable String reason) {
		log(action + " " + (("lanes".equals(collection)) ? "lane " : "") + id + values.describe(action), queue, reason);
		if (QUEUES.equals(queues) && "lanes".equals(collection)) {
			return handle(
					() -> this.delegate.controlLane(queue, id, action, values.cap(), values.maxActive(),
							"limit".equals(action) ? values.rate() : null),
					() -> "No such action '" + action + "'; try 'pause', 'resume', 'cap', 'uncap', 'limit' or"
							+ " 'unlimit'");
		}
		if (QUEUES.equals(queues) && "jobs".equals(collection) && "cancel".equals(action)) {
			return cancel(queue, id);
		}
		if (!QUEUES.equals(queues) || !DEAD.equals(collection) || !"replay".equals(action)) {
			return notFound(
					"No such resource; try POST queues/{queue}/dead/{id}/replay, queues/{queue}/jobs/{id}/cancel or"
							+ " queues/{queue}/lanes/{lane}/pause");
		}
		WebEndpointResponse<Object> response = handle(() -> this.delegate.replay(queue, id),
				() -> "Queue '" + queue + "' has no job " + id);
		if (response.getBody() instanceof ReplayDescriptor replay && !replay.replayed()) {
			return error(STATUS_CONFLICT, "Job " + id + " is " + replay.state() + ", not dead");
		}
		return response;
	}

	/**
	 * Return one job: its state, payload and progress; one batch; or one lane's controls.
	 * @param securityContext the security context
	 * @param queues must be {@code queues}
	 * @param queue the queue
	 * @param jobs {@code jobs}, {@code batches} or {@code lanes}
	 * @param id the job or batch id, or the lane key
	 * @return the job or batch, 404 when the queue has no row for it, 400 for a malformed
	 * id
	 */
	@ReadOperation
	public WebEndpointResponse<Object> job(SecurityContext securityContext, @Selector String queues,
			@Selector String queue, @Selector String jobs, @Selector String id) {
		if (QUEUES.equals(queues) && "batches".equals(jobs)) {
			return handle(() -> this.delegate.batch(queue, id), () -> "Queue '" + queue + "' has no batch " + id
					+ " (never written, or finished more than a day ago)");
		}
		if (QUEUES.equals(queues) && "lanes".equals(jobs)) {
			return handle(() -> this.delegate.lane(queue, id), () -> "");
		}
		if (!QUEUES.equals(queues) || !"jobs".equals(jobs)) {
			return notFound("No such resource; try GET queues/{queue}/jobs/{id}, queues/{queue}/batches/{id} or"
					+ " queues/{queue}/lanes/{lane}");
		}
		boolean show = this.showValues.isShown(securityContext, this.roles);
		return handle(() -> this.delegate.job(queue, id, show),
				() -> "Queue '" + queue + "' has no job " + id + " (finished and not retained, or never enqueued)");
	}

	/**
	 * Return a completed job's stored result, or the flow the job belongs to.
	 * @param securityContext the security context
	 * @param queues must be {@code queues}
	 * @param queue the queue
	 * @param jobs must be {@code jobs}
	 * @param id the job id
	 * @param detail {@code result} or {@code flow}
	 * @return the result, 404 when none is stored; the flow, 404 when the queue has no
	 * row for the job; 400 for a malformed id
	 */
	@ReadOperation
	public WebEndpointResponse<Object> jobDetail(SecurityContext securityContext, @Selector String queues,
			@Selector String queue, @Selector String jobs, @Selector String id, @Selector String detail) {
		if (!QUEUES.equals(queues) || !"jobs".equals(jobs) || !("result".equals(detail) || "flow".equals(detail))) {
			return notFound("No such resource; try GET queues/{queue}/jobs/{id}/result or .../flow");
		}
		boolean show = this.showValues.isShown(securityContext, this.roles);
		if ("flow".equals(detail)) {
			return handle(() -> this.delegate.flow(queue, id, show),
					() -> "Queue '" + queue + "' has no job " + id + " (finished and not retained, or never enqueued)");
		}
		return handle(() -> this.delegate.result(queue, id, show), () -> "Queue '" + queue
				+ "' has no stored result for job " + id + " (not completed, returned nothing, or expired)");
	}

	private WebEndpointResponse<Object> cancel(String queue, String id) {
		WebEndpointResponse<Object> response = handle(() -> this.delegate.cancel(queue, id), () -> "");
		if (response.getBody() instanceof CancelDescriptor cancel) {
			if ("not_found".equals(cancel.outcome())) {
				return notFound("Queue '" + queue + "' has no job " + id + " (finished, cancelled or never enqueued)");
			}
			if ("refused".equals(cancel.outcome())) {
				return error(STATUS_CONFLICT, "Job " + id + " cannot be cancelled: " + cancel.detail());
			}
		}
		return response;
	}

	/**
	 * Delete every dead job of a queue ({@code queues/{queue}/dead}), or a schedule
	 * ({@code schedules/{queue}/{name}}).
	 * @param queues {@code queues} or {@code schedules}
	 * @param queue the queue
	 * @param dead {@code dead} with {@code queues}, the schedule name with
	 * {@code schedules}
	 * @return how many were deleted; or the schedule deleted, 404 if there is no such
	 * schedule
	 */
	@DeleteOperation
	public WebEndpointResponse<Object> purge(@Selector String queues, @Selector String queue, @Selector String dead) {
		if (SCHEDULES.equals(queues)) {
			log("delete schedule '" + dead + "'", queue, null);
			return handle(() -> this.delegate.deleteSchedule(queue, dead),
					() -> "This application runs no schedule tick");
		}
		if (!QUEUES.equals(queues) || !DEAD.equals(dead)) {
			return notFound("No such resource; try DELETE queues/{queue}/dead or schedules/{queue}/{name}");
		}
		return handle(() -> this.delegate.purgeDead(queue), () -> "");
	}

	/**
	 * Return the recurring schedules with their last and next fire time.
	 * @param schedules must be {@code schedules}
	 * @return the schedules, 404 if this application runs no schedule tick
	 */
	@ReadOperation
	public WebEndpointResponse<Object> schedules(@Selector String schedules) {
		if (!SCHEDULES.equals(schedules)) {
			return notFound("No such resource '" + schedules + "'; try 'schedules'");
		}
		return handle(this.delegate::schedules, () -> "This application runs no schedule tick");
	}

	/**
	 * Trigger, pause or resume a schedule.
	 * @param schedules must be {@code schedules}
	 * @param queue the queue
	 * @param name the schedule name
	 * @param action {@code trigger}, {@code pause} or {@code resume}
	 * @param reason why, logged with the write, or {@code null}
	 * @return the occurrence of a trigger, or the schedule as it is after a pause or
	 * resume; 404 if there is no such schedule
	 * @since 0.5.0
	 */
	@WriteOperation
	public WebEndpointResponse<Object> scheduleAction(@Selector String schedules, @Selector String queue,
			@Selector String name, @Selector String action, @Nullable String reason) {
		if (!SCHEDULES.equals(schedules)) {
			return notFound("No such resource; try POST schedules/{queue}/{name}/trigger, pause or resume");
		}
		return switch (action) {
			case "trigger" -> triggerSchedule(schedules, queue, name, action, reason);
			case "pause", "resume" -> {
				log(action + " schedule '" + name + "'", queue, reason);
				Supplier<String> none = () -> "This application runs no schedule tick";
				yield handle(() -> this.delegate.pauseSchedule(queue, name, "pause".equals(action)), none);
			}
			default -> notFound("No such action '" + action + "'; try 'trigger', 'pause' or 'resume'");
		};
	}

	/**
	 * Enqueue an occurrence of a schedule now; its next fire time stays. The endpoint
	 * runs it through {@link #scheduleAction}.
	 * @param schedules must be {@code schedules}
	 * @param queue the queue
	 * @param name the schedule name
	 * @param action must be {@code trigger}
	 * @param reason why, logged with the write, or {@code null}
	 * @return the occurrence, 404 if there is no such schedule
	 */
	public WebEndpointResponse<Object> triggerSchedule(@Selector String schedules, @Selector String queue,
			@Selector String name, @Selector String action, @Nullable String reason) {
		log(action + " schedule '" + name + "'", queue, reason);
		if (!SCHEDULES.equals(schedules) || !"trigger".equals(action)) {
			return notFound("No such resource; try POST schedules/{queue}/{name}/trigger");
		}
		return handle(() -> this.delegate.triggerSchedule(queue, name),
				() -> "Queue '" + queue + "' has no schedule '" + name + "'");
	}

	private static void log(String write, String queue, @Nullable String reason) {
		logger.info(() -> ("echomq endpoint: " + write + " on queue '" + queue + "'"
				+ ((reason != null) ? ": " + reason : ""))
			.replaceAll("\\p{Cntrl}", "?"));
	}

	private static WebEndpointResponse<Object> handle(Supplier<@Nullable Object> operation, Supplier<String> notFound) {
		Object body;
		try {
			body = operation.get();
		}
		catch (IllegalArgumentException | InvalidJobIdException | InvalidQueueNameException | InvalidScheduleException
				| InvalidPartitionException ex) {
			return error(WebEndpointResponse.STATUS_BAD_REQUEST, String.valueOf(ex.getMessage()));
		}
		catch (UnknownScheduleException ex) {
			return notFound(String.valueOf(ex.getMessage()));
		}
		return (body != null) ? new WebEndpointResponse<>(body) : notFound(notFound.get());
	}

	private static WebEndpointResponse<Object> notFound(String message) {
		return error(WebEndpointResponse.STATUS_NOT_FOUND, message);
	}

	private static WebEndpointResponse<Object> error(int status, String message) {
		return new WebEndpointResponse<>(new ErrorDescriptor(status, message), status);
	}

	/**
	 * Why a request failed.
	 *
	 * @param status the HTTP status
	 * @param message what was wrong
	 */
	public record ErrorDescriptor(int status, String message) implements OperationResponseBody {

	}

}
