package io.echomq.dashboard.web;

import java.net.URI;
import java.security.Principal;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.stream.Collectors;

import io.echomq.core.InvalidJobIdException;
import io.echomq.core.InvalidPartitionException;
import io.echomq.core.InvalidQueueNameException;
import io.echomq.core.JobId;
import io.echomq.core.JobState;
import io.echomq.core.Keyspace;
import io.echomq.dashboard.EchoMqDashboard;
import io.echomq.dashboard.JobDetail;
import io.echomq.dashboard.JobPage;
import io.echomq.dashboard.LimitsUpdate;
import io.echomq.dashboard.Outcome;
import io.echomq.dashboard.QueueHistory;
import io.echomq.dashboard.QueueSummary;
import io.echomq.dashboard.web.DashboardSecurity.CsrfHeader;
import io.echomq.dashboard.web.DashboardWriteGuard.PageToken;
import io.echomq.dashboard.web.DashboardWriteGuard.Refusal;
import io.echomq.inspect.BatchView;
import io.echomq.inspect.FlowTree;
import io.echomq.schedule.InvalidScheduleException;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.util.Assert;
import org.springframework.web.servlet.function.HandlerFunction;
import org.springframework.web.servlet.function.RequestPredicates;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * The dashboard over Spring MVC functional endpoints, below its path ({@code /echomq} by
 * default):
 * <ul>
 * <li>pages: {@code /}, {@code /queues/{queue}}, {@code /queues/{queue}/jobs/{id}},
 * {@code /queues/{queue}/jobs/{id}/flow} (the flow the job belongs to) and
 * {@code /jobs/{id}} (which redirects to the job's queue), each the same HTML shell that
 * draws itself from the JSON API; files under {@code /assets/};</li>
 * <li>reads: {@code GET /api/overview}, {@code /api/history?minutes=},
 * {@code /api/jobs/{id}}, {@code /api/queues/{queue}},
 * {@code /api/queues/{queue}/jobs?state=&offset=&limit=&partition=} (a partitioned
 * queue's jobs of every partition, or of the one {@code partition} names) and
 * {@code /api/queues/{queue}/jobs/{id}} and {@code .../flow}; {@code /schedules} and
 * {@code /api/schedules};</li>
 * <li>actions, {@code POST} only, each checked by the {@link DashboardWriteGuard}:
 * {@code /api/queues/{queue}/jobs/{id}/replay}, {@code .../delete}, {@code .../run} and
 * {@code .../cancel}, {@code /api/queues/{queue}/dead/replay} and {@code .../purge},
 * {@code /api/queues/{queue}/pause} and {@code .../resume} (this node's listener),
 * {@code /api/queues/{queue}/cluster/pause} and {@code .../cluster/resume} (every node),
 * {@code /api/queues/{queue}/limits?maxActive=&rateLimit=&period=&laneMaxActive=&laneRateLimit=&lanePeriod=&concurrency=}
 * (store run-time limits, any subset; periods such as {@code 1s} or {@code PT1S}) and
 * {@code /api/queues/{queue}/limits/reset?which=} ({@code all} by default, or a
 * comma-separated list of {@code max-active}, {@code rate-limit},
 * {@code lane-max-active}, {@code lane-rate-limit}, {@code concurrency}),
 * {@code /api/schedules/{queue}/{name}/trigger}, {@code .../pause}, {@code .../resume}
 * and {@code .../delete}.</li>
 * </ul>
 * A job id goes to the partition it names. A malformed queue name, job id, state, page or
 * partition, or an id naming a partition the queue does not have, answers 400, an unknown
 * queue, job or listener 404, an action on a job in the wrong state 409, a refused action
 * 403; each with a message, and nothing written.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class EchoMqDashboardRoutes {

	/** Jobs on a page unless {@code limit} says otherwise. */
	public static final int DEFAULT_PAGE = 20;

	private static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
			+ "img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

	private static final MediaType HTML = MediaType.parseMediaType("text/html;charset=UTF-8");

	private final EchoMqDashboard dashboard;

	private final DashboardWriteGuard guard;

	private final DashboardSecurity security;

	private final String path;

	private final Show showValues;

	private final Set<String> roles;

	private final Duration refresh;

	private final DashboardPage page = new DashboardPage();

	/**
	 * Create the routes.
	 * @param dashboard the dashboard model
	 * @param guard the guard of actions
	 * @param security the application's security
	 * @param path the path the dashboard is served at, e.g. {@code /echomq}
	 * @param showValues when payloads are shown unsanitized
	 * @param roles the roles that may see them when {@link Show#WHEN_AUTHORIZED}
	 * @param refresh how often an open page polls
	 */
	public EchoMqDashboardRoutes(EchoMqDashboard dashboard, DashboardWriteGuard guard, DashboardSecurity security,
			String path, Show showValues, Set<String> roles, Duration refresh) {
		Assert.notNull(dashboard, "'dashboard' must not be null");
		Assert.notNull(guard, "'guard' must not be null");
		Assert.notNull(security, "'security' must not be null");
		Assert.notNull(showValues, "'showValues' must not be null");
		Assert.isTrue(refresh != null && refresh.toMillis() >= 100,
				() -> "echomq.dashboard.refresh must be at least 100ms, was " + refresh);
		this.dashboard = dashboard;
		this.guard = guard;
		this.security = security;
		this.path = validatePath(path);
		this.showValues = showValues;
		this.roles = Set.copyOf(roles);
		this.refresh = refresh;
	}

	/**
	 * Check a dashboard path.
	 * @param path the path
	 * @return the path
	 * @throws IllegalArgumentException if it is not {@code /} followed by one or more
	 * segments of {@code [A-Za-z0-9._-]}
	 */
	public static String validatePath(@Nullable String path) {
		Assert.isTrue(path != null && path.matches("(/[A-Za-z0-9._-]+)+"),
				() -> "Invalid echomq.dashboard.path '" + path + "': must be '/' followed by segments of "
						+ "[A-Za-z0-9._-], such as /echomq, without a trailing '/'");
		return path;
	}

	/**
	 * Return the router function.
	 * @return the routes
	 */
	public RouterFunction<ServerResponse> routes() {
		String base = this.path;
		String api = base + "/api";
		return RouterFunctions.route()
			.GET(base, this::overviewPage)
			.GET(base + "/", this::overviewPage)
			.GET(base + "/queues/{queue}", this::queuePage)
			.GET(base + "/queues/{queue}/jobs/{id}", this::jobPage)
			.GET(base + "/queues/{queue}/jobs/{id}/flow", (request) -> jobPage(request, "flow"))
			.GET(base + "/queues/{queue}/batches/{id}", this::batchPage)
			.GET(base + "/jobs/{id}", this::findPage)
			.GET(base + "/schedules", (request) -> shell(request, "schedules"))
			.GET(base + "/assets/{file}", this::asset)
			.GET(api + "/overview", (request) -> json(this.dashboard.overview()))
			.GET(api + "/history",
					(request) -> json(this.dashboard.history(intParam(request, "minutes", QueueHistory.MAX_MINUTES))))
			.GET(api + "/jobs/{id}", this::find)
			.GET(api + "/schedules", (request) -> json(this.dashboard.schedules()))
			.GET(api + "/queues/{queue}", this::queue)
			.GET(api + "/queues/{queue}/jobs", this::jobs)
			.GET(api + "/queues/{queue}/jobs/{id}", this::job)
			.GET(api + "/queues/{queue}/jobs/{id}/flow", this::flow)
			.GET(api + "/queues/{queue}/batches", this::batches)
			.GET(api + "/queues/{queue}/batches/{id}", this::batch)
			.POST(api + "/queues/{queue}/jobs/{id}/replay", action((queue, id) -> this.dashboard.replay(queue, id)))
			.POST(api + "/queues/{queue}/jobs/{id}/delete", action((queue, id) -> this.dashboard.delete(queue, id)))
			.POST(api + "/queues/{queue}/jobs/{id}/run", action((queue, id) -> this.dashboard.runNow(queue, id)))
			.POST(api + "/queues/{queue}/jobs/{id}/cancel", action((queue, id) -> this.dashboard.cancel(queue, id)))
			.POST(api + "/queues/{queue}/dead/replay", action((queue, id) -> this.dashboard.replayAllDead(queue)))
			.POST(api + "/queues/{queue}/dead/purge", action((queue, id) -> this.dashboard.purgeDead(queue)))
			.POST(api + "/queues/{queue}/pause", action((queue, id) -> this.dashboard.pause(queue)))
			.POST(api + "/queues/{queue}/resume", action((queue, id) -> this.dashboard.resume(queue)))
			.POST(api + "/queues/{queue}/cluster/pause", action((queue, id) -> this.dashboard.pauseCluster(queue)))
			.POST(api + "/queues/{queue}/cluster/resume", action((queue, id) -> this.dashboard.resumeCluster(queue)))
			.POST(api + "/queues/{queue}/limits",
					limits((queue, request) -> this.dashboard.storeLimits(queue, limitsUpdate(request))))
			.POST(api + "/queues/{queue}/limits/reset",
					limits((queue, request) -> this.dashboard.resetLimits(queue,
							request.param("which").filter((value) -> !value.isEmpty()).orElse("all"))))
			.POST(api + "/schedules/{queue}/{name}/trigger", schedule(this.dashboard::trigger))
			.POST(api + "/schedules/{queue}/{name}/pause",
					schedule((queue, name) -> this.dashboard.pauseSchedule(queue, name, true)))
			.POST(api + "/schedules/{queue}/{name}/resume",
					schedule((queue, name) -> this.dashboard.pauseSchedule(queue, name, false)))
			.POST(api + "/schedules/{queue}/{name}/delete", schedule(this.dashboard::deleteSchedule))
			.route(RequestPredicates.path(api + "/**"),
					(request) -> error(request, HttpStatus.NOT_FOUND,
							"No such dashboard resource: " + request.method() + " " + request.path()
									+ " (reads are GET, actions POST)"))
			.route(RequestPredicates.path(base + "/**"),
					(request) -> error(request, HttpStatus.NOT_FOUND, "No such dashboard page: " + request.path()))
			.onError(EchoMqDashboardRoutes::isBadInput,
					(ex, request) -> error(request, HttpStatus.BAD_REQUEST, String.valueOf(ex.getMessage())))
			.build();
	}

	private ServerResponse overviewPage(ServerRequest request) {
		return shell(request, "overview");
	}

	private ServerResponse queuePage(ServerRequest request) {
		String queue = request.pathVariable("queue");
		if (this.dashboard.queue(queue) == null) {
			return unknownQueue(request, queue);
		}
		return shell(request, "queue");
	}

	private ServerResponse jobPage(ServerRequest request) {
		return jobPage(request, "job");
	}

	private ServerResponse jobPage(ServerRequest request, String kind) {
		String queue = request.pathVariable("queue");
		JobId id = JobId.parse(request.pathVariable("id"));
		this.dashboard.engineName(queue, id);
		if (this.dashboard.queue(queue) == null) {
			return unknownQueue(request, queue);
		}
		return shell(request, kind);
	}

	private ServerResponse batchPage(ServerRequest request) {
		Keyspace.validateQueueName(request.pathVariable("queue"));
		JobId.parse(request.pathVariable("id"));
		return shell(request, "batch");
	}

	private ServerResponse findPage(ServerRequest request) {
		JobId id = JobId.parse(request.pathVariable("id"));
		String queue = this.dashboard.findQueue(id);
		if (queue == null) {
			return error(request, HttpStatus.NOT_FOUND, "No known queue has a job " + id
					+ " (a completed job is kept only within its queue's retention, a deleted one is gone)");
		}
		return ServerResponse.status(HttpStatus.SEE_OTHER)
			.location(URI.create(base(request) + "/queues/" + queue + "/jobs/" + id))
			.build();
	}

	private ServerResponse asset(ServerRequest request) {
		String file = request.pathVariable("file");
		if (!this.page.hasAsset(file)) {
			return error(request, HttpStatus.NOT_FOUND, "No such dashboard file: " + file);
		}
		return ServerResponse.ok()
			.contentType(this.page.mediaType(file))
			.cacheControl(CacheControl.noCache())
			.header("X-Content-Type-Options", "nosniff")
			.body(this.page.asset(file));
	}

	private ServerResponse find(ServerRequest request) {
		JobId id = JobId.parse(request.pathVariable("id"));
		String queue = this.dashboard.findQueue(id);
		if (queue == null) {
			return error(request, HttpStatus.NOT_FOUND, "No known queue has a job " + id);
		}
		return json(Map.of("queue", queue, "id", id.toString()));
	}

	private ServerResponse queue(ServerRequest request) {
		String queue = request.pathVariable("queue");
		QueueSummary summary = this.dashboard.queue(queue);
		return (summary != null) ? json(summary) : unknownQueue(request, queue);
	}

	private ServerResponse jobs(ServerRequest request) {
		String queue = request.pathVariable("queue");
		Keyspace.validateQueueName(queue);
		JobState state = state(request.param("state").orElse(JobState.PENDING.value()));
		Optional<String> partition = request.param("partition").filter((value) -> !value.isEmpty());
		JobPage jobs = this.dashboard.jobs(queue, state, intParam(request, "offset", 0),
				intParam(request, "limit", DEFAULT_PAGE), isShown(request),
				partition.isPresent() ? intParam(request, "partition", 0) : null);
		return (jobs != null) ? json(jobs) : unknownQueue(request, queue);
	}

	private ServerResponse job(ServerRequest request) {
		String queue = request.pathVariable("queue");
		JobId id = JobId.parse(request.pathVariable("id"));
		if (this.dashboard.queue(queue) == null) {
			return unknownQueue(request, queue);
		}
		JobDetail job = this.dashboard.job(queue, id, isShown(request));
		return (job != null) ? json(job)
				: error(request, HttpStatus.NOT_FOUND, "Queue '" + queue + "' has no job " + id
						+ ": it completed (completed jobs are kept only within the queue's retention), was deleted, "
						+ "or never existed");
	}

	private ServerResponse flow(ServerRequest request) {
		String queue = request.pathVariable("queue");
		JobId id = JobId.parse(request.pathVariable("id"));
		if (this.dashboard.queue(queue) == null) {
			return unknownQueue(request, queue);
		}
		FlowTree.Flow flow = this.dashboard.flow(queue, id, isShown(request));
		return (flow != null) ? json(flow)
				: error(request, HttpStatus.NOT_FOUND, "Queue '" + queue + "' has no job " + id
						+ ": its flow is read from a job that has a row (a completed job is kept only within its "
						+ "queue's retention)");
	}

	private ServerResponse batch(ServerRequest request) {
		String queue = request.pathVariable("queue");
		JobId id = JobId.parse(request.pathVariable("id"));
		Keyspace.validateQueueName(queue);
		BatchView.Batch batch = this.dashboard.batch(queue, id);
		return (batch != null) ? json(batch) : error(request, HttpStatus.NOT_FOUND,
				"Queue '" + queue + "' has no batch " + id + " (never written, or finished more than a day ago)");
	}

	private ServerResponse batches(ServerRequest request) {
		String queue = request.pathVariable("queue");
		Keyspace.validateQueueName(queue);
		return json(this.dashboard.batches(queue));
	}

	private HandlerFunction<ServerResponse> schedule(BiFunction<String, String, Outcome> action) {
		return (request) -> {
			Refusal refusal = this.guard.check(request.servletRequest());
			if (refusal != null) {
				return error(request, refusal.status(), refusal.message());
			}
			return outcome(action.apply(request.pathVariable("queue"), request.pathVariable("name")));
		};
	}

	private HandlerFunction<ServerResponse> limits(BiFunction<String, ServerRequest, Outcome> action) {
		return (request) -> {
			Refusal refusal = this.guard.check(request.servletRequest());
			if (refusal != null) {
				return error(request, refusal.status(), refusal.message());
			}
			String queue = request.pathVariable("queue");
			if (this.dashboard.queue(queue) == null) {
				return unknownQueue(request, queue);
			}
			return outcome(action.apply(queue, request));
		};
	}

	private static LimitsUpdate limitsUpdate(ServerRequest request) {
		return new LimitsUpdate(intParam(request, "maxActive"), intParam(request, "rateLimit"),
				durationParam(request, "period"), intParam(request, "laneMaxActive"),
				intParam(request, "laneRateLimit"), durationParam(request, "lanePeriod"),
				intParam(request, "concurrency"));
	}

	private static @Nullable Integer intParam(ServerRequest request, String name) {
		Optional<String> value = request.param(name).map(String::trim).filter((text) -> !text.isEmpty());
		if (value.isEmpty()) {
			return null;
		}
		try {
			return Integer.valueOf(value.get());
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException(
					name + " must be a whole number, was '" + abbreviate(value.get()) + "'; nothing was written");
		}
	}

	private static @Nullable Duration durationParam(ServerRequest request, String name) {
		Optional<String> value = request.param(name).map(String::trim).filter((text) -> !text.isEmpty());
		if (value.isEmpty()) {
			return null;
		}
		try {
			return DurationStyle.detectAndParse(value.get());
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException(name + " must be a duration such as 1s, 500ms or PT1M, was '"
					+ abbreviate(value.get()) + "'; nothing was written");
		}
	}

	private HandlerFunction<ServerResponse> action(BiFunction<String, @Nullable JobId, Outcome> action) {
		return (request) -> {
			Refusal refusal = this.guard.check(request.servletRequest());
			if (refusal != null) {
				return error(request, refusal.status(), refusal.message());
			}
			String queue = request.pathVariable("queue");
			String id = request.pathVariables().get("id");
			JobId jobId = (id != null) ? JobId.parse(id) : null;
			if (this.dashboard.queue(queue) == null) {
				return unknownQueue(request, queue);
			}
			return outcome(action.apply(queue, jobId));
		};
	}

	private static ServerResponse outcome(Outcome outcome) {
		HttpStatus status = switch (outcome.status()) {
			case DONE -> HttpStatus.OK;
			case NOT_FOUND -> HttpStatus.NOT_FOUND;
			case CONFLICT -> HttpStatus.CONFLICT;
		};
		return ServerResponse.status(status)
			.contentType(MediaType.APPLICATION_JSON)
			.body(new ActionResponse(status.value(), outcome.message(), outcome.count(), outcome.result()));
	}

	private ServerResponse shell(ServerRequest request, String kind) {
		HttpServletRequest servlet = request.servletRequest();
		String base = base(request);
		Map<String, String> values = new LinkedHashMap<>();
		values.put("kind", kind);
		values.put("base", base);
		values.put("node", this.dashboard.node());
		values.put("refresh", Long.toString(this.refresh.toMillis()));
		values.put("canWrite", Boolean.toString(this.guard.canWrite(servlet)));
		values.put("showValues", Boolean.toString(isShown(request)));
		values.put("csrfHeader", DashboardWriteGuard.HEADER);
		PageToken token = this.guard.token(servlet, base);
		values.put("csrfToken", token.value());
		CsrfHeader application = this.security.csrfHeader(servlet);
		values.put("appCsrfHeader", (application != null) ? application.name() : "");
		values.put("appCsrfToken", (application != null) ? application.token() : "");
		ServerResponse.BodyBuilder response = htmlResponse(HttpStatus.OK);
		if (token.cookie() != null) {
			response.header(HttpHeaders.SET_COOKIE, token.cookie().toString());
		}
		return response.body(this.page.shell(values));
	}

	private ServerResponse unknownQueue(ServerRequest request, String queue) {
		return error(request, HttpStatus.NOT_FOUND, "Queue '" + queue + "' is not known here: no listener on this "
				+ "node, not configured under echomq.queues, never enqueued to from here, and empty");
	}

	private ServerResponse error(ServerRequest request, HttpStatus status, String message) {
		if (request.path().startsWith(this.path + "/api/")) {
			return ServerResponse.status(status)
				.contentType(MediaType.APPLICATION_JSON)
				.body(new ErrorResponse(status.value(), message));
		}
		Map<String, String> values = new LinkedHashMap<>();
		values.put("base", base(request));
		values.put("status", Integer.toString(status.value()));
		values.put("reason", status.getReasonPhrase());
		values.put("message", message);
		return htmlResponse(status).body(this.page.error(values));
	}

	private static ServerResponse.BodyBuilder htmlResponse(HttpStatus status) {
		return ServerResponse.status(status)
			.contentType(HTML)
			.cacheControl(CacheControl.noStore())
			.header("Content-Security-Policy", CONTENT_SECURITY_POLICY)
			.header("X-Content-Type-Options", "nosniff")
			.header("Referrer-Policy", "same-origin");
	}

	private static ServerResponse json(Object body) {
		return ServerResponse.ok()
			.contentType(MediaType.APPLICATION_JSON)
			.cacheControl(CacheControl.noStore())
			.body(body);
	}

	private String base(ServerRequest request) {
		return request.servletRequest().getContextPath() + this.path;
	}

	private boolean isShown(ServerRequest request) {
		HttpServletRequest servlet = request.servletRequest();
		return this.showValues.isShown(new SecurityContext() {

			@Override
			public @Nullable Principal getPrincipal() {
				return servlet.getUserPrincipal();
			}

			@Override
			public boolean isUserInRole(String role) {
				return servlet.isUserInRole(role);
			}

		}, this.roles);
	}

	private static JobState state(String value) {
		for (JobState state : JobState.values()) {
			if (state.value().equals(value)) {
				return state;
			}
		}
		throw new IllegalArgumentException("state must be one of "
				+ Arrays.stream(JobState.values()).map(JobState::value).collect(Collectors.joining(", ")) + "; was '"
				+ abbreviate(value) + "'");
	}

	private static int intParam(ServerRequest request, String name, int defaultValue) {
		Optional<String> value = request.param(name);
		if (value.isEmpty() || value.get().isEmpty()) {
			return defaultValue;
		}
		try {
			return Integer.parseInt(value.get());
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException(name + " must be a whole number, was '" + abbreviate(value.get()) + "'");
		}
	}

	private static boolean isBadInput(Throwable ex) {
		return ex instanceof IllegalArgumentException || ex instanceof InvalidQueueNameException
				|| ex instanceof InvalidJobIdException || ex instanceof InvalidScheduleException
				|| ex instanceof InvalidPartitionException;
	}

	private static String abbreviate(String text) {
		return (text.length() <= 80) ? text : text.substring(0, 80) + "...";
	}

	/**
	 * The answer to an action.
	 *
	 * @param status the HTTP status
	 * @param message what happened
	 * @param count how many jobs it touched
	 * @param result the engine's own answer, such as a cancel's {@code CANCELLED} or
	 * {@code REQUESTED}, or {@code null}
	 */
	public record ActionResponse(int status, String message, long count, @Nullable String result) {

	}

	/**
	 * Why a request failed.
	 *
	 * @param status the HTTP status
	 * @param message what was wrong
	 */
	public record ErrorResponse(int status, String message) {

	}

}
