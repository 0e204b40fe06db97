package io.echomq.core.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

import io.echomq.core.JobId;
import io.echomq.core.JobState;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.ZSetOperations.TypedTuple;

/**
 * Pages of a location, read before a script call names them as its candidates: members
 * that are not JOB ids are left out and remembered as suspects.
 *
 * @author EchoMQ
 */
final class Pages {

	private static final long DUE_TOLERANCE_MS = 2_000;

	private final EngineState state;

	private final StringRedisTemplate template;

	Pages(EngineState state) {
		this.state = state;
		this.template = state.template();
	}

	/**
	 * Read the page of a location at {@code offset} and return the due members: those
	 * scored at most the estimated server time plus a tolerance (the script checks
	 * exactly). Members that are not JOB ids are counted and remembered as suspects.
	 */
	Due dueCandidates(String queue, JobState location, String key, long offset, int limit) {
		if (!this.state.clockKnown()) {
			this.state.learnClock(List.of(this.state.serverTime()));
		}
		Set<TypedTuple<String>> page = this.template.opsForZSet().rangeWithScores(key, offset, offset + limit - 1);
		if (page == null || page.isEmpty()) {
			return new Due(ScriptCalls.NO_IDS, 0, false, new long[0], Long.MAX_VALUE);
		}
		long horizon = this.state.estimatedServerTime() + DUE_TOLERANCE_MS;
		List<String> due = new ArrayList<>(page.size());
		long[] scores = new long[page.size()];
		long later = Long.MAX_VALUE;
		int foreign = 0;
		boolean more = page.size() == limit;
		for (TypedTuple<String> tuple : page) {
			Double score = tuple.getScore();
			if (score == null || score > horizon) {
				if (score != null) {
					later = (long) Math.ceil(score);
				}
				more = false;
				break;
			}
			String member = tuple.getValue();
			if (member != null && JobId.isValid(member)) {
				scores[due.size()] = (long) Math.ceil(score);
				due.add(member);
			}
			else {
				foreign++;
				if (member != null) {
					this.state.suspects.add(queue, location, member);
				}
			}
		}
		return new Due(due.toArray(ScriptCalls.NO_IDS), foreign, more, Arrays.copyOf(scores, due.size()), later);
	}

	/**
	 * Read the page of a location at {@code offset}; members that are not JOB ids are
	 * left out and remembered as suspects.
	 */
	Page page(String queue, JobState location, String key, long offset, int size) {
		Set<String> members = this.template.opsForZSet().range(key, offset, offset + size - 1);
		return toPage(queue, location, (members != null) ? new ArrayList<>(members) : List.of(), offset);
	}

	Page toPage(String queue, List<Object> raw, long offset) {
		List<String> members = new ArrayList<>(raw.size());
		for (Object value : raw) {
			members.add(Replies.string(value));
		}
		return toPage(queue, JobState.PENDING, members, offset);
	}

	Page toPage(String queue, JobState location, List<String> members, long offset) {
		List<String> ids = new ArrayList<>(members.size());
		for (String member : members) {
			if (member != null && JobId.isValid(member)) {
				ids.add(member);
			}
			else if (member != null) {
				this.state.suspects.add(queue, location, member);
			}
		}
		return new Page(offset, ids.toArray(ScriptCalls.NO_IDS), members.size());
	}

	/**
	 * A page of a location: where it starts, the JOB ids in it (in order), and how many
	 * members it had in all, those that are not JOB ids included.
	 */
	record Page(long offset, String[] ids, int members) {

		int foreign() {
			return this.members - this.ids.length;
		}

	}

	/**
	 * The due JOB ids of a page and their scores, the members before them that are not
	 * JOB ids, whether the page was due to its end (so the next page may hold due members
	 * too), and the score of the first member past the due horizon
	 * ({@code Long.MAX_VALUE} when the page had none).
	 */
	record Due(String[] ids, int foreign, boolean more, long[] scores, long later) {

	}

	/**
	 * The earliest time a pass saw a member fall due after it: the first member past the
	 * due horizon, or a candidate that the script found not due yet, or, when a due
	 * candidate stayed where it was, the server time of that call (try again soon).
	 */
	static final class NextDue {

		private long at = Long.MAX_VALUE;

		void later(Due due) {
			this.at = Math.min(this.at, due.later());
		}

		void left(Due due, long serverNow) {
			long soonest = Long.MAX_VALUE;
			for (long score : due.scores()) {
				if (score > serverNow) {
					soonest = Math.min(soonest, score);
				}
			}
			this.at = Math.min(this.at, (soonest != Long.MAX_VALUE) ? soonest : serverNow);
		}

		OptionalLong at() {
			return (this.at != Long.MAX_VALUE) ? OptionalLong.of(this.at) : OptionalLong.empty();
		}

	}

}
