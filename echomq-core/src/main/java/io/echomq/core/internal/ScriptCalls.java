package io.echomq.core.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.echomq.core.JobId;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * The script calls the engine parts share: calls that declare the rows of their
 * candidates, the lanes a script asks for, or the unique key a row names.
 *
 * @author EchoMQ
 */
final class ScriptCalls {

	static final String[] NO_IDS = {};

	private static final String UNIQUE_KEY_REPLY = "UNIQUE_KEY";

	private final EngineState state;

	private final ScriptExecutor executor;

	ScriptCalls(EngineState state) {
		this.state = state;
		this.executor = state.executor();
	}

	/**
	 * Run a fenced transition that may release a unique key: first with none declared;
	 * when the script answers that the row names one (nothing was written), again with
	 * that key declared. Jobs without a unique key pay nothing.
	 */
	List<Object> withUniqueKey(String queue, Script script, List<String> keys, List<String> args) {
		return withUniqueKey(queue, script, keys, args, null);
	}

	/**
	 * Run a fenced transition as {@link #withUniqueKey(String, Script, List, List)} does,
	 * with the keys of a child of a flow declared on the first call when the caller knows
	 * its parent ({@link ClaimedJob#flowParent()}): one call where asking takes two.
	 * @param flowParent the parent's id when it is in the same queue, {@code ""} when it
	 * is elsewhere, or {@code null} when not known (asked for when needed)
	 */
	List<Object> withUniqueKey(String queue, Script script, List<String> keys, List<String> args,
			@Nullable String flowParent) {
		return withKeys(queue, script, keys, args, JobKeys.flowParent(flowParent));
	}

	/**
	 * Run a fenced transition as {@link #withUniqueKey(String, Script, List, List)} does,
	 * with the keys the caller knows the job needs declared on the first call: its unique
	 * key and its parent's keys. With all of them known (a claimed job's
	 * {@link ClaimedJob#keys(boolean)}) it is one call.
	 */
	List<Object> withKeys(String queue, Script script, List<String> keys, List<String> args, JobKeys known) {
		List<String> declared = null;
		String flowParent = known.flowParent();
		boolean outbox = flowParent != null;
		if (known.uniqueKey() != null || flowParent != null) {
			declared = new ArrayList<>(keys);
			if (known.uniqueKey() != null) {
				declareOnce(declared, this.state.keys(queue).unique(known.uniqueKey()));
			}
			if (flowParent != null) {
				declareFlow(queue, flowParent, declared);
			}
		}
		List<Object> reply = this.executor.execute(script, (declared != null) ? declared : keys, args);
		if (outbox && Replies.number(reply.get(0)) == 1) {
			this.state.signals().outboxWritten(queue);
			return reply;
		}
		// at most one unique key, one lane and one flow parent: a fourth answer asking
		// for keys is a bug
		for (int round = 0; round < 3; round++) {
			String name = uniqueKeyNeeded(reply);
			String lane = laneKeyNeeded(reply);
			String parent = flowKeysNeeded(reply);
			if (name == null && lane == null && parent == null) {
				return reply;
			}
			declared = (declared != null) ? declared : new ArrayList<>(keys);
			if (name != null) {
				declareOnce(declared, this.state.keys(queue).unique(name));
			}
			if (lane != null) {
				declareOnce(declared, this.state.keys(queue).lane(lane, LaneKeyType.PENDING));
				declareOnce(declared, this.state.keys(queue).lanes());
			}
			if (parent != null) {
				declareFlow(queue, parent, declared);
				// a parent on another slot gets a record; one on this slot that the child
				// dead-letters may write its own record for its parent
				outbox = true;
			}
			reply = this.executor.execute(script, declared, args);
			if (outbox && Replies.number(reply.get(0)) == 1) {
				// the script wrote an outbox record: relay it now, not at the next reap
				this.state.signals().outboxWritten(queue);
				return reply;
			}
		}
		if (uniqueKeyNeeded(reply) != null || laneKeyNeeded(reply) != null || flowKeysNeeded(reply) != null) {
			throw new IllegalStateException(
					script.name() + " asked again for keys it was given: " + declared + "; nothing was written");
		}
		return reply;
	}

	private static void declareOnce(List<String> declared, String key) {
		if (!declared.contains(key)) {
			declared.add(key);
		}
	}

	/**
	 * Declare the keys a child of a flow needs when it finishes (flow.lua): the queue's
	 * outbox, and for a parent in the same queue its row and the locations it moves
	 * between.
	 */
	void declareFlow(String queue, String parent, List<String> declared) {
		QueueKeys keys = this.state.keys(queue);
		declared.add(keys.outbox());
		if (!parent.isEmpty()) {
			declared.add(keys.rowPrefix() + parent);
			declared.add(keys.waiting());
			declared.add(keys.pending());
			declared.add(keys.dead());
			declared.add(keys.wake());
		}
	}

	/**
	 * Return the parent a finishing child of a flow needs declared ({@code ""} for a
	 * parent on another slot), or {@code null} when the reply asks for none.
	 */
	static @Nullable String flowKeysNeeded(List<Object> reply) {
		if (reply.size() == 3 && reply.get(0) instanceof Long flag && flag == 0
				&& "FLOW_KEYS".equals(Replies.string(reply.get(1)))) {
			return Replies.string(reply.get(2));
		}
		return null;
	}

	static @Nullable String laneKeyNeeded(List<Object> reply) {
		if (reply.size() == 3 && reply.get(0) instanceof Long flag && flag == 0
				&& "LANE_KEY".equals(Replies.string(reply.get(1)))) {
			return Replies.string(reply.get(2));
		}
		return null;
	}

	static @Nullable String uniqueKeyNeeded(List<Object> reply) {
		if (reply.size() == 3 && reply.get(0) instanceof Long flag && flag == 0
				&& UNIQUE_KEY_REPLY.equals(Replies.string(reply.get(1)))) {
			return Replies.string(reply.get(2));
		}
		return null;
	}

	/**
	 * Run a script that may return jobs to their lanes (promote, reap): the fixed keys,
	 * then the declared lanes' pending keys, then the candidates' rows; the arguments are
	 * the number of declared lanes, their keys, then the candidates.
	 */
	List<Object> withLanes(Script script, String queue, List<String> fixed, List<String> lanes, String[] ids) {
		return withLanes(script, queue, fixed, lanes, ids, List.of());
	}

	/**
	 * Run a script that may return jobs to their lanes, as
	 * {@link #withLanes(Script, String, List, List, String[])} does, with keys declared
	 * after the candidates' rows.
	 */
	List<Object> withLanes(Script script, String queue, List<String> fixed, List<String> lanes, String[] ids,
			List<String> declared) {
		return withLanes(script, queue, fixed, lanes, ids, declared, false);
	}

	/**
	 * Run a script that hands jobs on to run ({@code promote.lua}), as
	 * {@link #withLanes(Script, String, List, List, String[])} does, with the keys a job
	 * past its deadline is moved to dead with declared ({@code includes/expire.lua}).
	 */
	List<Object> withLanesExpiring(Script script, String queue, List<String> fixed, List<String> lanes, String[] ids) {
		return withLanes(script, queue, fixed, lanes, ids, List.of(), true);
	}

	private List<Object> withLanes(Script script, String queue, List<String> fixed, List<String> lanes, String[] ids,
			List<String> declared, boolean expiry) {
		List<String> keys = new ArrayList<>(fixed.size() + lanes.size() + ids.length + declared.size());
		keys.addAll(fixed);
		for (String lane : lanes) {
			keys.add(this.state.keys(queue).lane(lane, LaneKeyType.PENDING));
		}
		String rows = this.state.keys(queue).rowPrefix();
		for (String id : ids) {
			keys.add(rows + id);
		}
		keys.addAll(declared);
		List<String> args = new ArrayList<>(1 + lanes.size() + ids.length);
		args.add(Integer.toString(lanes.size()));
		args.addAll(lanes);
		args.addAll(List.of(ids));
		if (expiry) {
			ClaimCall.declareExpiry(this.state.keys(queue), keys, args);
		}
		this.state.declareEvents(queue, keys, args);
		List<Object> reply = this.executor.execute(script, keys, args);
		this.state.learnClock(reply);
		return reply;
	}

	/** The lanes a promote or reap reply asks the caller to declare ({id, lane, ...}). */
	static Set<String> needs(Object value) {
		List<Object> pairs = Replies.list(value);
		Set<String> lanes = new LinkedHashSet<>();
		for (int i = 1; i < pairs.size(); i += 2) {
			lanes.add(Replies.string(pairs.get(i)));
		}
		return lanes;
	}

	List<String> withRows(String queue, List<String> fixed, String[] ids) {
		List<String> keys = new ArrayList<>(fixed.size() + ids.length);
		keys.addAll(fixed);
		String rows = this.state.keys(queue).rowPrefix();
		for (String id : ids) {
			keys.add(rows + id);
		}
		return keys;
	}

	static String[] jobIds(List<Object> raw) {
		List<String> ids = new ArrayList<>(raw.size());
		for (Object value : raw) {
			String id = Replies.string(value);
			if (JobId.isValid(id)) {
				ids.add(id);
			}
		}
		return ids.toArray(NO_IDS);
	}

	static String argument(FencingToken token) {
		Assert.notNull(token, "'token' must not be null");
		return Long.toString(token.value());
	}

	static void requirePositive(@Nullable Duration duration, String name) {
		Assert.isTrue(duration != null && duration.toMillis() > 0,
				() -> name + " must be at least 1ms, was " + duration);
	}

}
