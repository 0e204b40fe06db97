package io.echomq.dashboard;

import java.util.Map;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;

import io.echomq.EchoMqAdmin;
import io.echomq.core.CancelResult;
import io.echomq.core.JobId;
import io.echomq.core.JobState;
import io.echomq.core.Keyspace;
import io.echomq.core.StaleReason;
import io.echomq.core.TransitionResult;
import io.echomq.inspect.QueueInspector;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.listener.QueueListenerContainer;
import org.jspecify.annotations.Nullable;

/**
 * What the dashboard does: replay, delete, run now and cancel one job, replay or purge
 * every dead job, pause and resume this node's listener, and pause and resume a queue
 * cluster-wide. A job id goes to the partition it names, a queue-wide action to every
 * partition.
 *
 * @author EchoMQ
 * @see EchoMqDashboard
 */
final class DashboardActions {

	private final EchoMqAdmin admin;

	private final QueueInspector inspector;

	private final DashboardReads reads;

	private final @Nullable EchoJobListenerRegistry listeners;

	private final ToIntFunction<String> replayBudget;

	private final String node;

	DashboardActions(EchoMqAdmin admin, QueueInspector inspector, DashboardReads reads,
			@Nullable EchoJobListenerRegistry listeners, ToIntFunction<String> replayBudget, String node) {
		this.admin = admin;
		this.inspector = inspector;
		this.reads = reads;
		this.listeners = listeners;
		this.replayBudget = replayBudget;
		this.node = node;
	}

	Outcome replay(String queue, JobId id) {
		int budget = this.replayBudget.applyAsInt(queue);
		TransitionResult result = this.admin.replay(queue, id, budget);
		if (result.isApplied()) {
			return Outcome
				.done("Job " + id + " replayed: pending again, with a fresh budget of " + plural(budget, "attempt"), 1);
		}
		if (result.reason() == StaleReason.MALFORMED_ROW) {
			return malformed(id, "replayed", result.detail());
		}
		return notDead(queue, id, "replayed");
	}

	Outcome delete(String queue, JobId id) {
		TransitionResult result = this.admin.delete(queue, id);
		if (result.isApplied()) {
			return Outcome.done("Job " + id + " deleted (it was " + stateLabel(result.state()) + ")", 1);
		}
		return switch (result.reason()) {
			case NOT_FOUND -> new Outcome(Outcome.Status.NOT_FOUND, "Queue '" + queue + "' has no job " + id, 0);
			case MALFORMED_ROW -> malformed(id, "deleted", result.detail());
			case ACTIVE -> new Outcome(Outcome.Status.CONFLICT,
					"Job " + id + " is active: a worker holds its lease, so it cannot be deleted", 0);
			default -> new Outcome(Outcome.Status.CONFLICT, "Job " + id + " was not deleted: " + result.detail(), 0);
		};
	}

	Outcome runNow(String queue, JobId id) {
		TransitionResult result = this.admin.runNow(queue, id);
		if (result.isApplied()) {
			return Outcome.done("Job " + id + " moved to pending: it runs as soon as a worker is free", 1);
		}
		if (result.reason() == StaleReason.MALFORMED_ROW) {
			return malformed(id, "run now", result.detail());
		}
		Map<String, String> row = this.inspector.row(this.reads.engineName(queue, id), id);
		if (row.isEmpty()) {
			return new Outcome(Outcome.Status.NOT_FOUND, "Queue '" + queue + "' has no job " + id, 0);
		}
		return new Outcome(Outcome.Status.CONFLICT, "Job " + id + " is " + row.getOrDefault("state", "in no state")
				+ ", not scheduled: only scheduled jobs can be run now", 0);
	}

	private static String stateLabel(@Nullable JobState state) {
		if (state == null) {
			return "gone";
		}
		return switch (state) {
			case SCHEDULE -> "scheduled";
			case QUARANTINE -> "quarantined";
			default -> state.value();
		};
	}

	Outcome replayAllDead(String queue) {
		Keyspace.validateQueueName(queue);
		EchoMqAdmin.DeadReplay replay = this.admin.replayDead(queue, this.replayBudget.applyAsInt(queue),
				EchoMqDashboard.MAX_REPLAY_ALL);
		String still = (replay.stillDead() > 0) ? "; " + replay.stillDead() + " still dead" : "";
		return Outcome.done("Replayed " + plural(replay.replayed(), "dead job") + still, replay.replayed());
	}

	Outcome purgeDead(String queue) {
		long purged = this.admin.purgeDead(queue);
		return Outcome.done("Purged " + plural(purged, "dead job"), purged);
	}

	Outcome pause(String queue) {
		return onListener(queue, QueueListenerContainer::pause, "paused");
	}

	Outcome resume(String queue) {
		return onListener(queue, QueueListenerContainer::resume, "resumed");
	}

	private Outcome onListener(String queue, Consumer<QueueListenerContainer> action, String done) {
		QueueListenerContainer container = container(queue);
		if (container == null) {
			return noListener(queue);
		}
		action.accept(container);
		return Outcome.done("Listener of '" + queue + "' " + done + " on " + this.node, 1);
	}

	Outcome cancel(String queue, JobId id) {
		Keyspace.validateQueueName(queue);
		CancelResult result = this.admin.cancel(queue, id);
		return switch (result.outcome()) {
			case CANCELLED -> Outcome.done("Job " + id + " cancelled (it was " + stateLabel(result.state()) + ")", 1,
					result.outcome().name());
			case REQUESTED -> Outcome.done("Cancel of running job " + id + " requested: its worker stops the handler "
					+ "at the next lease renewal and discards its outcome", 1, result.outcome().name());
			case NOT_FOUND -> new Outcome(Outcome.Status.NOT_FOUND,
					"Queue '" + queue + "' has no job " + id + " to cancel: it finished or never existed", 0,
					result.outcome().name());
			case REFUSED -> new Outcome(Outcome.Status.CONFLICT, "Job " + id + " was not cancelled: " + result.detail(),
					0, result.outcome().name());
		};
	}

	Outcome pauseCluster(String queue) {
		boolean changed = this.admin.pause(queue);
		return Outcome.done(changed ? "Queue '" + queue + "' paused on every node"
				: "Queue '" + queue + "' was already paused on every node", changed ? 1 : 0);
	}

	Outcome resumeCluster(String queue) {
		boolean changed = this.admin.resume(queue);
		return Outcome.done(changed ? "Queue '" + queue + "' resumed on every node"
				: "Queue '" + queue + "' was not paused cluster-wide", changed ? 1 : 0);
	}

	private Outcome notDead(String queue, JobId id, String action) {
		Map<String, String> row = this.inspector.row(this.reads.engineName(queue, id), id);
		if (row.isEmpty()) {
			return new Outcome(Outcome.Status.NOT_FOUND, "Queue '" + queue + "' has no job " + id, 0);
		}
		return new Outcome(Outcome.Status.CONFLICT, "Job " + id + " is " + row.getOrDefault("state", "in no state")
				+ ", not dead: only dead jobs can be " + action, 0);
	}

	private static Outcome malformed(JobId id, String action, @Nullable String problem) {
		return new Outcome(Outcome.Status.CONFLICT, "Job " + id + " was not " + action + ": its row is malformed ("
				+ problem + "); it is left as it is for the engine to quarantine", 0);
	}

	private Outcome noListener(String queue) {
		return new Outcome(Outcome.Status.NOT_FOUND, "Queue '" + queue + "' has no listener on " + this.node, 0);
	}

	private @Nullable QueueListenerContainer container(String queue) {
		Keyspace.validateQueueName(queue);
		return (this.listeners != null) ? this.listeners.getContainer(queue) : null;
	}

	private static String plural(long count, String noun) {
		return count + " " + noun + ((count != 1) ? "s" : "");
	}

}
