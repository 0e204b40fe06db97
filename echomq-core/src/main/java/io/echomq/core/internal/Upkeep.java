package io.echomq.core.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.echomq.core.JobId;
import io.echomq.core.JobState;
import io.echomq.core.QueuePartitions;
import io.echomq.core.ReapResult;
import io.echomq.core.Retention;
import io.echomq.core.internal.Pages.Due;
import io.echomq.core.internal.Pages.NextDue;

import org.springframework.util.Assert;

/**
 * The maintenance transitions: reap expired leases, promote due scheduled jobs, trim
 * history to its bounds, and quarantine what no transition can move; and the history
 * bounds themselves.
 *
 * @author EchoMQ
 */
public final class Upkeep extends EnginePart {

	private static final JobState[] SOURCES = { JobState.PENDING, JobState.ACTIVE, JobState.SCHEDULE, JobState.DEAD };

	private static final JobState[] HISTORY = { JobState.COMPLETED, JobState.DEAD };

	Upkeep(EngineState state) {
		super(state);
	}

	/**
	 * Set how much history a queue keeps: its completed jobs (none by default, so a
	 * completed job's row is retired at once) and its dead jobs
	 * ({@link Retention#DEAD_DEFAULT} by default). Every node completing jobs of a queue
	 * should be given the same bounds.
	 * @param queue the queue
	 * @param completed bounds of the completed location, {@link Retention#NONE} to keep
	 * none
	 * @param dead bounds of the dead location, {@link Retention#NONE} to keep every dead
	 * job
	 */
	public void retain(String queue, Retention completed, Retention dead) {
		QueuePartitions.validateEngineName(queue);
		Assert.notNull(completed, "'completed' must not be null");
		Assert.notNull(dead, "'dead' must not be null");
		this.state.retentions.retain(queue, completed, dead);
	}

	/**
	 * Return the bounds of a queue's history in a location.
	 * @param queue the queue
	 * @param location {@link JobState#COMPLETED} or {@link JobState#DEAD}
	 * @return the bounds
	 */
	public Retention retention(String queue, JobState location) {
		return this.state.retention(queue, location);
	}

	/**
	 * Trim a queue's history (completed and dead) back within its bounds, at most
	 * {@code limit} jobs per location, each with its row. The maintenance scheduler runs
	 * this, so that an age bound holds on an idle queue and dead keeps its bounds
	 * whatever path dead-lettered a job.
	 * @param queue the queue
	 * @param limit the most jobs to trim per location
	 * @return how many jobs were trimmed
	 */
	public long trimHistory(String queue, int limit) {
		QueuePartitions.validateEngineName(queue);
		Assert.isTrue(limit > 0, () -> "limit must be positive, was " + limit);
		long trimmed = 0;
		for (JobState location : HISTORY) {
			Retention retention = this.state.retention(queue, location);
			if (!retention.isEnabled()) {
				continue;
			}
			String key = this.state.keys(queue).location(location);
			List<String> fixed = List.of(key);
			String[] candidates = ScriptCalls.NO_IDS;
			long done = 0;
			while (done < limit) {
				List<String> args = new ArrayList<>(3 + candidates.length);
				args.add(location.value());
				args.add(Long.toString(retention.count()));
				args.add(Long.toString(retention.age().toMillis()));
				args.addAll(List.of(candidates));
				List<Object> reply = this.executor.execute(this.scripts.trim,
						this.calls.withRows(queue, fixed, candidates), args);
				this.state.learnClock(reply);
				long n = Replies.number(reply.get(1));
				done += n;
				String[] next = ScriptCalls.jobIds(Replies.list(reply.get(2)));
				if (next.length == 0 || (candidates.length > 0 && n == 0)) {
					break;
				}
				candidates = next;
			}
			trimmed += done;
		}
		return trimmed;
	}

	/**
	 * Move up to {@code limit} expired leases back to pending (or to dead when they had
	 * used their last attempt). Expired ids no transition can move are left where they
	 * are, counted as {@linkplain ReapResult#skipped() skipped}, and passed over.
	 * @param queue the queue
	 * @param limit the most ids to move
	 * @return what moved
	 */
	public ReapResult reap(String queue, int limit) {
		return reapPass(queue, limit).moved();
	}

	/**
	 * Move up to {@code limit} expired leases back to pending (or to dead), as
	 * {@link #reap(String, int)} does, and tell when the earliest lease left falls due.
	 * @param queue the queue
	 * @param limit the most ids to move
	 * @return what moved, and the earliest lease deadline seen that has not passed
	 */
	public MaintenancePass<ReapResult> reapPass(String queue, int limit) {
		Assert.isTrue(limit > 0, () -> "limit must be positive, was " + limit);
		String active = this.state.keys(queue).active();
		List<String> fixed = this.state.keys(queue).forReap();
		// awaited jobs leave waiters (notify.lua); a child of a flow that dies records it
		// in the
		// outbox (flow.lua)
		List<String> declared = this.state.keys(queue).addNotify(new ArrayList<>(3));
		declared.add(this.state.keys(queue).outbox());
		int requeued = 0;
		int dead = 0;
		int skipped = 0;
		long offset = 0;
		NextDue next = new NextDue();
		while (requeued + dead < limit) {
			Due due = this.pages.dueCandidates(queue, JobState.ACTIVE, active, offset, limit - requeued - dead);
			next.later(due);
			int passed = due.foreign();
			boolean drained = true;
			if (due.ids().length > 0) {
				List<Object> reply = this.calls.withLanes(this.scripts.reap, queue, fixed, List.of(), due.ids(),
						declared);
				this.state.learnClock(reply);
				int back = (int) Replies.number(reply.get(1));
				int gone = (int) Replies.number(reply.get(2));
				int cancelled = (int) Replies.number(reply.get(5));
				Set<String> lanes = ScriptCalls.needs(reply.get(6));
				if (!lanes.isEmpty()) {
					List<Object> again = this.calls.withLanes(this.scripts.reap, queue, fixed, List.copyOf(lanes),
							due.ids(), declared);
					back += (int) Replies.number(again.get(1));
					gone += (int) Replies.number(again.get(2));
					cancelled += (int) Replies.number(again.get(5));
				}
				requeued += back;
				dead += gone;
				Map<String, String> reasons = Replies.reasons(reply.get(3));
				this.state.suspects.addAll(queue, JobState.ACTIVE, reasons.keySet());
				Map<String, String> needed = Replies.reasons(reply.get(4));
				if (!needed.isEmpty()) {
					int[] moved = reapDeclaring(queue, fixed, needed);
					back += moved[0];
					gone += moved[1];
					cancelled += moved[2];
					requeued += moved[0];
					dead += moved[1];
				}
				passed += reasons.size();
				drained = back + gone + cancelled + reasons.size() == due.ids().length;
				if (!drained) {
					next.left(due, Replies.number(reply.get(0)));
				}
			}
			skipped += passed;
			if (!drained || !due.more() || (passed == 0 && due.ids().length == 0)) {
				break;
			}
			offset += passed;
		}
		return new MaintenancePass<>(new ReapResult(requeued, dead, skipped), next.at());
	}

	/**
	 * Reap again the candidates whose death (or retirement as cancelled) releases a
	 * unique key, with those keys declared.
	 * @return reaped to pending, reaped to dead, retired as cancelled
	 */
	private int[] reapDeclaring(String queue, List<String> fixed, Map<String, String> needed) {
		String[] ids = needed.keySet().toArray(ScriptCalls.NO_IDS);
		// those die or are retired as cancelled: no lane to declare
		List<String> keys = this.state.keys(queue).addNotify(this.calls.withRows(queue, fixed, ids));
		String prefix = this.state.keys(queue).uniquePrefix();
		new LinkedHashSet<>(needed.values()).forEach((name) -> keys.add(prefix + name));
		keys.add(this.state.keys(queue).outbox());
		List<String> args = new ArrayList<>(1 + ids.length);
		args.add("0");
		args.addAll(List.of(ids));
		this.state.declareEvents(queue, keys, args);
		List<Object> reply = this.executor.execute(this.scripts.reap, keys, args);
		Map<String, String> reasons = Replies.reasons(reply.get(3));
		this.state.suspects.addAll(queue, JobState.ACTIVE, reasons.keySet());
		if (!Replies.reasons(reply.get(4)).isEmpty()) {
			throw new IllegalStateException("reap asked again for unique keys it was given: " + needed);
		}
		return new int[] { (int) Replies.number(reply.get(1)), (int) Replies.number(reply.get(2)),
				(int) Replies.number(reply.get(5)) };
	}

	/**
	 * Move up to {@code limit} due scheduled jobs to pending. Due ids no transition can
	 * move are left where they are and passed over.
	 * @param queue the queue
	 * @param limit the most ids to move
	 * @return how many moved
	 */
	public int promote(String queue, int limit) {
		return promotePass(queue, limit).moved();
	}

	/**
	 * Move up to {@code limit} due scheduled jobs to pending, as
	 * {@link #promote(String, int)} does, and tell when the earliest scheduled job left
	 * falls due.
	 * @param queue the queue
	 * @param limit the most ids to move
	 * @return how many moved, and the earliest run-at seen that has not passed
	 */
	public MaintenancePass<Integer> promotePass(String queue, int limit) {
		Assert.isTrue(limit > 0, () -> "limit must be positive, was " + limit);
		String schedule = this.state.keys(queue).schedule();
		List<String> fixed = this.state.keys(queue).forPromote();
		int promoted = 0;
		int expiredTotal = 0;
		long offset = 0;
		NextDue next = new NextDue();
		while (promoted + expiredTotal < limit) {
			Due due = this.pages.dueCandidates(queue, JobState.SCHEDULE, schedule, offset,
					limit - promoted - expiredTotal);
			next.later(due);
			int passed = due.foreign();
			boolean drained = true;
			if (due.ids().length > 0) {
				List<Object> reply = this.calls.withLanesExpiring(this.scripts.promote, queue, fixed, List.of(),
						due.ids());
				this.state.learnClock(reply);
				int moved = (int) Replies.number(reply.get(1));
				int expired = (int) Replies.number(reply.get(4));
				Set<String> lanes = ScriptCalls.needs(reply.get(3));
				if (!lanes.isEmpty()) {
					moved += (int) Replies.number(this.calls
						.withLanesExpiring(this.scripts.promote, queue, fixed, List.copyOf(lanes), due.ids())
						.get(1));
				}
				promoted += moved;
				expiredTotal += expired;
				Map<String, String> reasons = Replies.reasons(reply.get(2));
				this.state.suspects.addAll(queue, JobState.SCHEDULE, reasons.keySet());
				passed += reasons.size();
				drained = moved + expired + reasons.size() == due.ids().length;
				if (!drained) {
					next.left(due, Replies.number(reply.get(0)));
				}
			}
			if (!drained || !due.more() || (passed == 0 && due.ids().length == 0)) {
				break;
			}
			offset += passed;
		}
		return new MaintenancePass<>(promoted, next.at(), expiredTotal);
	}

	/**
	 * Move members of a location that no transition can move to the
	 * {@link KeyType#QUARANTINE quarantine} location, in one atomic move each: members
	 * that are not JOB ids, ids without a row, rows breaking the row schema, and ids
	 * whose row names a location they are not in. Each is checked again first; a
	 * well-formed job is left where it is. A stray copy (its well-formed row names
	 * another location that holds it too) is removed, the job going on where its row
	 * says.
	 * @param queue the queue
	 * @param location where the members are: pending, active, schedule or dead
	 * @param members the members to check
	 * @return what moved
	 */
	public QuarantineResult quarantine(String queue, JobState location, Collection<String> members) {
		Assert.isTrue(location != JobState.QUARANTINE && location != JobState.COMPLETED,
				() -> "location must be pending, active, schedule or dead, was " + location.value());
		Assert.notNull(members, "'members' must not be null");
		List<String> fixed = this.state.keys(queue).forQuarantine();
		List<String> all = new ArrayList<>(new LinkedHashSet<>(members));
		QuarantineResult result = QuarantineResult.NONE;
		for (int start = 0; start < all.size(); start += Engine.ENQUEUE_CHUNK) {
			List<String> chunk = all.subList(start, Math.min(all.size(), start + Engine.ENQUEUE_CHUNK));
			List<String> foreign = new ArrayList<>();
			List<String> ids = new ArrayList<>();
			for (String member : chunk) {
				Assert.notNull(member, "members must not contain null");
				((JobId.isValid(member)) ? ids : foreign).add(member);
			}
			List<String> args = new ArrayList<>(2 + chunk.size());
			args.add(location.value());
			args.add(Integer.toString(foreign.size()));
			args.addAll(foreign);
			args.addAll(ids);
			List<String> keys = this.calls.withRows(queue, fixed, ids.toArray(ScriptCalls.NO_IDS));
			if (!ids.isEmpty()) {
				this.state.keys(queue).addNotify(keys);
			}
			this.state.declareEvents(queue, keys, args);
			List<Object> reply = this.executor.execute(this.scripts.quarantine, keys, args);
			this.state.learnClock(reply);
			result = result.plus(new QuarantineResult((int) Replies.number(reply.get(1)),
					(int) Replies.number(reply.get(2)), Replies.reasons(reply.get(3))));
		}
		return result;
	}

	/**
	 * Quarantine what the verbs of this engine met in a queue and had to leave where it
	 * was (see {@link #quarantine(String, JobState, Collection)}); the maintenance
	 * scheduler calls this on every reap tick.
	 * @param queue the queue
	 * @return what moved
	 */
	public QuarantineResult quarantineSuspects(String queue) {
		if (this.state.suspects.isEmpty(queue)) {
			return QuarantineResult.NONE;
		}
		QuarantineResult result = QuarantineResult.NONE;
		for (JobState location : SOURCES) {
			List<String> members = this.state.suspects.drain(queue, location);
			if (!members.isEmpty()) {
				result = result.plus(quarantine(queue, location, members));
			}
		}
		return result;
	}

	/**
	 * Return the server time as last learned from a script reply, estimated from the
	 * local clock.
	 * @return the estimated server time in epoch ms
	 */
	public long estimatedServerTime() {
		return this.state.estimatedServerTime();
	}

}
