package io.echomq.core.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.echomq.core.CancelResult;
import io.echomq.core.FlowLimits;
import io.echomq.core.JobId;
import io.echomq.core.JobState;
import io.echomq.core.Keyspace;
import io.echomq.core.LaneControls;
import io.echomq.core.StaleReason;
import io.echomq.core.TransitionResult;
import io.echomq.core.internal.Pages.Page;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.util.Assert;

/**
 * An operator's verbs on one queue (or partition): pause and resume it cluster-wide,
 * store or reset its run-time limits, replay, delete, run now or cancel one job, and
 * purge the dead.
 *
 * @author EchoMQ
 */
public final class QueueAdmin extends EnginePart {

	QueueAdmin(EngineState state) {
		super(state);
	}

	/**
	 * Pause a queue cluster-wide: claims on every node return nothing until it is
	 * {@linkplain #resume(String) resumed}, or, for a timed pause, until {@code duration}
	 * passed (server time). A timed pause never shortens a pause in place: an indefinite
	 * one stays, a longer one stays.
	 * @param queue the queue
	 * @param duration how long the pause lasts, or {@code null} until resumed
	 * @param reason why, kept as the flag's value
	 * @return whether the flag changed
	 */
	public boolean pause(String queue, @Nullable Duration duration, String reason) {
		Assert.notNull(reason, "'reason' must not be null");
		if (duration != null) {
			ScriptCalls.requirePositive(duration, "pause duration");
		}
		List<Object> reply = this.executor.execute(this.scripts.pause, pauseKeys(queue),
				List.of((duration != null) ? "pause_for" : "pause",
						(duration != null) ? Long.toString(duration.toMillis()) : "0", reason));
		return Replies.number(reply.get(0)) == 1;
	}

	/**
	 * Resume a queue paused cluster-wide, and wake idle pollers so they claim at once.
	 * @param queue the queue
	 * @return whether it was paused
	 */
	public boolean resume(String queue) {
		List<Object> reply = this.executor.execute(this.scripts.pause, pauseKeys(queue), List.of("resume", "0", ""));
		return Replies.number(reply.get(0)) == 1;
	}

	/**
	 * Return how long a queue stays paused cluster-wide, read now.
	 * @param queue the queue
	 * @return the time left, {@link Duration#ZERO} when not paused, or {@code null} when
	 * paused until resumed
	 */
	public @Nullable Duration pauseLeft(String queue) {
		byte[] key = this.state.keys(queue).paused().getBytes(java.nio.charset.StandardCharsets.UTF_8);
		Long left = this.template.execute((RedisCallback<Long>) (connection) -> connection.keyCommands().pTtl(key));
		if (left == null || left == -2) {
			return Duration.ZERO;
		}
		return (left < 0) ? null : Duration.ofMillis(left);
	}

	/**
	 * Pause, resume, cap or limit one lane of a queue (or partition), or read its
	 * controls, in one {@code lane_control.lua} call: a paused lane's jobs stay pending
	 * and unclaimed until it is resumed; an enqueue that would leave more than the cap in
	 * the lane's pending set is refused whole; the lane's own max-active and rate win
	 * over the queue's lane defaults.
	 * @param queue the queue (or partition)
	 * @param lane the lane key
	 * @param control what to do
	 * @param cap the cap for {@link LaneControl#CAP} (at least 1), else ignored
	 * @param maxActive the lane's own max-active for {@link LaneControl#LIMIT}, or
	 * {@code null} to leave it
	 * @param rate the lane's own rate for {@link LaneControl#LIMIT}, or {@code null} to
	 * leave it
	 * @return whether the controls changed, and the lane's controls after the call
	 */
	public LaneControlResult laneControl(String queue, String lane, LaneControl control, long cap,
			@Nullable Integer maxActive, FlowLimits.@Nullable RateLimit rate) {
		Keyspace.validateLane(lane);
		Assert.notNull(control, "'control' must not be null");
		if (control == LaneControl.CAP) {
			Assert.isTrue(cap >= 1, () -> "The pending cap of lane '" + lane + "' must be at least 1, was " + cap);
		}
		if (control == LaneControl.LIMIT) {
			Assert.isTrue(maxActive != null || rate != null, () -> "No limit to set for lane '" + lane + "'");
			Assert.isTrue(maxActive == null || maxActive >= 1,
					() -> "The max-active of lane '" + lane + "' must be at least 1, was " + maxActive);
		}
		QueueKeys keys = this.state.keys(queue);
		List<Object> reply = this.executor.execute(this.scripts.laneControl,
				List.of(keys.laneControls(), keys.lane(lane, LaneKeyType.PENDING), keys.lanes(), keys.wake()),
				List.of(lane, control.mode, Long.toString(cap), (maxActive != null) ? maxActive.toString() : "0",
						(rate != null) ? Integer.toString(rate.limit()) : "0",
						(rate != null) ? Long.toString(rate.period().toMillis()) : "0"));
		long pendingCap = Replies.number(reply.get(2));
		int ownMaxActive = (int) Replies.number(reply.get(4));
		int ownRate = (int) Replies.number(reply.get(5));
		FlowLimits.RateLimit ownRateLimit = (ownRate > 0)
				? new FlowLimits.RateLimit(ownRate, Duration.ofMillis(Replies.number(reply.get(6)))) : null;
		return new LaneControlResult(Replies.number(reply.get(0)) == 1,
				new LaneControls(lane, Replies.number(reply.get(1)) == 1, (pendingCap > 0) ? pendingCap : null,
						Replies.number(reply.get(3)), (ownMaxActive > 0) ? ownMaxActive : null, ownRateLimit));
	}

	/**
	 * What {@link #laneControl} does to a lane.
	 */
	public enum LaneControl {

		/** Pause the lane: claims pass it over. */
		PAUSE("pause"),

		/** Resume the lane, waking idle pollers when it has jobs. */
		RESUME("resume"),

		/** Set the lane's pending cap. */
		CAP("cap"),

		/** Clear the lane's pending cap. */
		UNCAP("uncap"),

		/** Set the lane's own max-active and/or rate. */
		LIMIT("limit"),

		/** Clear the lane's own max-active and rate. */
		UNLIMIT("unlimit"),

		/** Read the lane's controls, writing nothing. */
		READ("read");

		private final String mode;

		LaneControl(String mode) {
			this.mode = mode;
		}

	}

	/**
	 * The outcome of a {@link #laneControl} call.
	 *
	 * @param changed whether the call changed the lane's controls
	 * @param controls the lane's controls after the call
	 */
	public record LaneControlResult(boolean changed, LaneControls controls) {

	}

	/**
	 * Store run-time limits for a queue ({@code set_limits.lua}): each field, an integer
	 * of at least 1, wins over the configured value from every node's next claim (the
	 * concurrency from each container's next beat) until it is {@linkplain #resetLimits
	 * reset}.
	 * @param queue the queue (or partition)
	 * @param fields the fields ({@link KeyType#LIMITS}) and their values
	 * @return the limits stored after the write
	 * @throws IllegalArgumentException if a field is unknown, a value is not an integer
	 * of at least 1, or a rate comes without its period (nothing was written)
	 */
	public Map<String, String> setLimits(String queue, Map<String, String> fields) {
		List<String> args = new ArrayList<>(1 + 2 * fields.size());
		args.add("set");
		fields.forEach((field, value) -> {
			args.add(field);
			args.add(value);
		});
		return limits(queue, args);
	}

	/**
	 * Delete stored run-time limits of a queue, so that the configured ones apply again.
	 * @param queue the queue (or partition)
	 * @param fields the limits to reset ({@code max_active}, {@code rate},
	 * {@code lane_max_active}, {@code lane_rate}, {@code concurrency}), none for all
	 * @return the limits stored after the write
	 * @throws IllegalArgumentException if a field is unknown (nothing was written)
	 */
	public Map<String, String> resetLimits(String queue, List<String> fields) {
		List<String> args = new ArrayList<>(1 + fields.size());
		args.add("reset");
		args.addAll(fields);
		return limits(queue, args);
	}

	/**
	 * Return the run-time limits stored for a queue, read now.
	 * @param queue the queue (or partition)
	 * @return field to value, empty when none is stored
	 */
	public Map<String, String> storedLimits(String queue) {
		return this.template.<String, String>opsForHash().entries(this.state.keys(queue).limits());
	}

	/**
	 * Return the listener concurrency stored for a queue at run time, read now.
	 * @param queue the queue (or partition)
	 * @return the concurrency, or {@code null} when none is stored
	 */
	public @Nullable Integer storedConcurrency(String queue) {
		Object value = this.template.opsForHash().get(this.state.keys(queue).limits(), "concurrency");
		if (value == null) {
			return null;
		}
		try {
			int concurrency = Integer.parseInt(value.toString());
			return (concurrency > 0) ? concurrency : null;
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

	private Map<String, String> limits(String queue, List<String> args) {
		try {
			QueueKeys keys = this.state.keys(queue);
			return Replies
				.hash(this.executor.execute(this.scripts.setLimits, List.of(keys.limits(), keys.wake()), args));
		}
		catch (RuntimeException ex) {
			String refused = ScriptErrors.find(ex, "EMQARG ");
			if (refused != null) {
				throw new IllegalArgumentException(
						"Limits of queue '" + queue + "' refused: " + refused + "; nothing was written", ex);
			}
			throw ex;
		}
	}

	private List<String> pauseKeys(String queue) {
		return this.state.keys(queue).forPause();
	}

	/**
	 * Replay a dead job: dead to pending, with a fresh budget of {@code budget} attempts.
	 * @param queue the queue
	 * @param id the job id
	 * @param budget the attempts the job gets from now on
	 * @return applied, or stale when the job is not dead
	 */
	public TransitionResult replay(String queue, JobId id, int budget) {
		Assert.isTrue(budget > 0, () -> "budget must be positive, was " + budget);
		List<String> keys = this.state.keys(queue).forReplay(id);
		List<String> args = new ArrayList<>(List.of(id.toString(), Integer.toString(budget)));
		this.state.declareEvents(queue, keys, args);
		List<Object> reply = this.executor.execute(this.scripts.replay, keys, args);
		TransitionResult result = Replies.fenced(reply);
		return result.isStale() ? result : TransitionResult.applied(JobState.PENDING, null);
	}

	/**
	 * Delete one job, wherever it waits or rests: pending, schedule, dead or completed,
	 * with its row, in one atomic move. An active job is refused
	 * ({@link StaleReason#ACTIVE}): its worker holds a lease.
	 * @param queue the queue
	 * @param id the job id
	 * @return applied with the state the job was deleted from, or stale:
	 * {@link StaleReason#NOT_FOUND}, {@link StaleReason#ACTIVE},
	 * {@link StaleReason#MALFORMED_ROW}, or {@link StaleReason#WRONG_STATE} when the row
	 * names a location the id is not in
	 */
	public TransitionResult delete(String queue, JobId id) {
		Assert.notNull(id, "'id' must not be null");
		List<String> keys = this.state.keys(queue).forDelete(id);
		List<String> args = new ArrayList<>(List.of(id.toString()));
		this.state.declareEvents(queue, keys, args);
		List<Object> reply = this.calls.withUniqueKey(queue, this.scripts.delete, keys, args);
		TransitionResult result = Replies.fenced(reply);
		return result.isStale() ? result
				: TransitionResult.applied(JobState.fromValue(Replies.string(reply.get(1))), null);
	}

	/**
	 * Run a scheduled job now: schedule to pending at once, whatever its run-at.
	 * @param queue the queue
	 * @param id the job id
	 * @return applied (state pending, at the server time of the move), or stale:
	 * {@link StaleReason#NOT_SCHEDULED}, {@link StaleReason#MALFORMED_ROW},
	 * {@link StaleReason#WRONG_STATE}
	 */
	public TransitionResult runNow(String queue, JobId id) {
		Assert.notNull(id, "'id' must not be null");
		List<String> keys = this.state.keys(queue).forRunNow(id);
		List<String> args = new ArrayList<>(List.of(id.toString()));
		this.state.declareEvents(queue, keys, args);
		List<Object> reply = this.executor.execute(this.scripts.runNow, keys, args);
		TransitionResult result = Replies.fenced(reply);
		return result.isStale() ? result : TransitionResult.applied(JobState.PENDING, Replies.instant(reply.get(1)));
	}

	/**
	 * Cancel a job, whatever its state, in one script: a pending, scheduled or dead job
	 * leaves its location and its row is retired; a running job is marked, its worker
	 * stops the handler at the next lease renewal, and whatever the handler comes to is
	 * discarded (the job is retired as cancelled when it leaves {@code active}, by the
	 * outcome, a release or the reaper). A finished or unknown job is reported as
	 * {@link CancelResult.Outcome#NOT_FOUND not found}.
	 * @param queue the queue
	 * @param id the job id
	 * @return what the cancel did
	 */
	public CancelResult cancel(String queue, JobId id) {
		Assert.notNull(id, "'id' must not be null");
		List<String> keys = this.state.keys(queue).forCancel(id);
		List<String> args = new ArrayList<>(3);
		args.add(id.toString());
		this.state.declareEvents(queue, keys, args);
		List<Object> reply = this.calls.withUniqueKey(queue, this.scripts.cancel, keys, args);
		String code = Replies.string(reply.get(1));
		return switch (code) {
			case "CANCELLED" -> new CancelResult(CancelResult.Outcome.CANCELLED,
					JobState.fromValue(Replies.string(reply.get(2))), null, null);
			case "REQUESTED" ->
				new CancelResult(CancelResult.Outcome.REQUESTED, JobState.ACTIVE, Replies.instant(reply.get(3)), null);
			case "NOT_FOUND" ->
				new CancelResult(CancelResult.Outcome.NOT_FOUND, null, null, Replies.string(reply.get(2)));
			case "REFUSED" -> new CancelResult(CancelResult.Outcome.REFUSED, null, null, Replies.string(reply.get(2)));
			default -> throw new IllegalStateException("Unexpected cancel reply '" + code + "'");
		};
	}

	/**
	 * Delete every dead job of a queue, with its row. Members of dead no transition can
	 * move (not JOB ids, malformed rows, a state other than {@code dead}) are left where
	 * they are and passed over.
	 * @param queue the queue
	 * @return how many were deleted
	 */
	public long purgeDead(String queue) {
		String dead = this.state.keys(queue).dead();
		List<String> fixed = List.of(dead, this.state.keys(queue).metrics());
		long total = 0;
		long offset = 0;
		while (true) {
			Page page = this.pages.page(queue, JobState.DEAD, dead, offset, Engine.ENQUEUE_CHUNK);
			if (page.members() == 0) {
				return total;
			}
			int passed = page.foreign();
			long purged = 0;
			if (page.ids().length > 0) {
				List<String> keys = this.state.keys(queue).addNotify(this.calls.withRows(queue, fixed, page.ids()));
				List<String> args = new ArrayList<>(List.of(page.ids()));
				this.state.declareEvents(queue, keys, args);
				List<Object> reply = this.executor.execute(this.scripts.purge, keys, args);
				purged = Replies.number(reply.get(0));
				Map<String, String> reasons = Replies.reasons(reply.get(1));
				this.state.suspects.addAll(queue, JobState.DEAD, reasons.keySet());
				passed += reasons.size();
			}
			total += purged;
			if (purged == 0 && passed == 0) {
				return total;
			}
			offset += passed;
		}
	}

	/**
	 * Read the server's time ({@code TIME}).
	 * @return the server time in epoch ms
	 */
	public long serverTime() {
		return this.state.serverTime();
	}

}
