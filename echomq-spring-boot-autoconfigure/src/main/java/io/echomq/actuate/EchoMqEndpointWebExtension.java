package io.echomq.actuate;

import java.util.Set;
import java.util.function.Supplier;

import io.echomq.actuate.EchoMqEndpoint.ReplayDescriptor;
import io.echomq.core.InvalidJobIdException;
import io.echomq.core.InvalidPartitionException;
import io.echomq.core.InvalidQueueNameException;
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
import org.springframework.util.Assert;

/**
 * Web extension of the {@link EchoMqEndpoint}:
 * <ul>
 * <li>{@code GET /echomq/queues/{queue}}: one queue;</li>
 * <li>{@code GET /echomq/queues/{queue}/dead?offset=&limit=}: a page of dead jobs, their
 * payloads shown as {@code show-values} allows;</li>
 * <li>{@code GET /echomq/queues/{queue}/audit}: an audit of the queue's keyspace;</li>
 * <li>{@code POST /echomq/queues/{queue}/pause} and {@code .../resume}: the
 * listener;</li>
 * <li>{@code POST /echomq/queues/{queue}/dead/{id}/replay}: replay a dead job;</li>
 * <li>{@code DELETE /echomq/queues/{queue}/dead}: purge the dead jobs.</li>
 * </ul>
 * A malformed queue name, job id or page answers 400, an unknown queue, listener or job
 * 404, a job that is not dead 409; each with a message.
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
	 * Return a page of a queue's dead jobs, or an audit of the queue.
	 * @param securityContext the security context
	 * @param queues must be {@code queues}
	 * @param queue the queue
	 * @param detail {@code dead} or {@code audit}
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
		return notFound("No such resource '" + detail + "'; try 'dead' or 'audit'");
	}

	/**
	 * Pause or resume a queue's listener.
	 * @param queues must be {@code queues}
	 * @param queue the queue
	 * @param action {@code pause} or {@code resume}
	 * @return the listener, 404 if the queue has none here
	 */
	@WriteOperation
	public WebEndpointResponse<Object> control(@Selector String queues, @Selector String queue,
			@Selector String action) {
		if (!QUEUES.equals(queues)) {
			return notFound("No such resource '" + queues + "'; try 'queues'");
		}
		Supplier<String> noListener = () -> "Queue '" + queue + "' has no listener in this application";
		return switch (action) {
			case "pause" -> handle(() -> this.delegate.pause(queue), noListener);
			case "resume" -> handle(() -> this.delegate.resume(queue), noListener);
			default -> notFound("No such action '" + action + "'; try 'pause' or 'resume'");
		};
	}

	/**
	 * Replay a dead job.
	 * @param queues must be {@code queues}
	 * @param queue the queue
	 * @param dead must be {@code dead}
	 * @param id the job id
	 * @param action must be {@code replay}
	 * @return the outcome: 404 if the queue has no such job, 409 if it is not dead
	 */
	@WriteOperation
	public WebEndpointResponse<Object> replay(@Selector String queues, @Selector String queue, @Selector String dead,
			@Selector String id, @Selector String action) {
		if (!QUEUES.equals(queues) || !DEAD.equals(dead) || !"replay".equals(action)) {
			return notFound("No such resource; try POST queues/{queue}/dead/{id}/replay");
		}
		WebEndpointResponse<Object> response = handle(() -> this.delegate.replay(queue, id),
				() -> "Queue '" + queue + "' has no job " + id);
		if (response.getBody() instanceof ReplayDescriptor replay && !replay.replayed()) {
			return error(STATUS_CONFLICT, "Job " + id + " is " + replay.state() + ", not dead");
		}
		return response;
	}

	/**
	 * Delete every dead job of a queue.
	 * @param queues must be {@code queues}
	 * @param queue the queue
	 * @param dead must be {@code dead}
	 * @return how many were deleted
	 */
	@DeleteOperation
	public WebEndpointResponse<Object> purge(@Selector String queues, @Selector String queue, @Selector String dead) {
		if (!QUEUES.equals(queues) || !DEAD.equals(dead)) {
			return notFound("No such resource; try DELETE queues/{queue}/dead");
		}
		return handle(() -> this.delegate.purgeDead(queue), () -> "");
	}

	private static WebEndpointResponse<Object> handle(Supplier<@Nullable Object> operation,
			Supplier<String> notFound) {
		Object body;
		try {
			body = operation.get();
		}
		catch (IllegalArgumentException | InvalidJobIdException | InvalidQueueNameException | InvalidPartitionException ex) {
			return error(WebEndpointResponse.STATUS_BAD_REQUEST, String.valueOf(ex.getMessage()));
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
