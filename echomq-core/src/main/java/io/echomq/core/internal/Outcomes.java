package io.echomq.core.internal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import io.echomq.core.EnqueueOptions;
import io.echomq.core.JobId;
import io.echomq.core.JobState;
import io.echomq.core.QueuePartitions;
import io.echomq.core.Retention;
import io.echomq.core.TransitionResult;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * What becomes of a claimed job: complete (one, or many in one call per
 * {@value Engine#COMPLETE_BATCH}), retry, snooze, dead-letter, extend its lease, or
 * release it. Every outcome is fenced by the token its claim returned.
 *
 * @author EchoMQ
 */
public final class Outcomes extends EnginePart {

	/** Most trim candidates one script call takes (RETAIN_BATCH of retain.lua). */
	private static final int RETAIN_BATCH = 16;

	final CompletionCalls completionCalls;

	Outcomes(EngineState state, Results results) {
		super(state);
		this.completionCalls = new CompletionCalls(state, results);
	}

	/**
	 * Complete a job: active to done. Without retention the row is retired; with it the
	 * job moves to {@link KeyType#COMPLETED completed} with its row, and the script trims
	 * completed to its bounds (a bounded number of ids per call, those the previous call
	 * of this node named as over the bounds).
	 * @param queue the queue
	 * @param id the job id
	 * @param token the fencing token its claim returned
	 * @return applied, or stale if the caller's lease was lost
	 */
	public TransitionResult complete(String queue, JobId id, FencingToken token) {
		return complete(queue, id, token, null);
	}

	/**
	 * Complete a job whose unique key the caller knows ({@link ClaimedJob#uniqueKey()}),
	 * declaring it up front: one round trip where
	 * {@link #complete(String, JobId, FencingToken)} needs two for a job with a unique
	 * key.
	 * @param queue the queue
	 * @param id the job id
	 * @param token the fencing token its claim returned
	 * @param uniqueKey the name of the job's unique key, or {@code null}
	 * @return applied, or stale if the caller's lease was lost
	 */
	public TransitionResult complete(String queue, JobId id, FencingToken token, @Nullable String uniqueKey) {
		return complete(queue, id, token, uniqueKey, null);
	}

	/**
	 * Complete a job and store its result in the same move: on the row when the queue
	 * retains its completed jobs, else in its {@link QueueKeys#result(JobId) key} for the
	 * queue's {@link Results#ttl(String) result TTL}. A stale completion writes neither.
	 * @param queue the queue
	 * @param id the job id
	 * @param token the fencing token its claim returned
	 * @param uniqueKey the name of the job's unique key, or {@code null}
	 * @param result the result as the payload converter wrote it (checked with
	 * {@link Results#check}), or {@code null} for none
	 * @return applied, or stale if the caller's lease was lost
	 */
	public TransitionResult complete(String queue, JobId id, FencingToken token, @Nullable String uniqueKey,
			@Nullable String result) {
		return complete(queue, id, token, uniqueKey, null, result);
	}

	/**
	 * Complete a job as {@link #complete(String, JobId, FencingToken, String, String)}
	 * does, declaring up front the keys the caller knows it needs: its unique key and,
	 * for a child of a flow or a job of a batch, its parent's
	 * ({@link ClaimedJob#flowParent()}): one round trip where asking for them takes up to
	 * three.
	 * @param queue the queue
	 * @param id the job id
	 * @param token the fencing token its claim returned
	 * @param uniqueKey the name of the job's unique key, or {@code null}
	 * @param flowParent the parent's id when it is in the same queue, {@code ""} when it
	 * is elsewhere, or {@code null} when the job has no parent or the caller does not
	 * know (the script asks for the keys it needs)
	 * @param result the result as the payload converter wrote it (checked with
	 * {@link Results#check}), or {@code null} for none
	 * @return applied, or stale if the caller's lease was lost
	 */
	public TransitionResult complete(String queue, JobId id, FencingToken token, @Nullable String uniqueKey,
			@Nullable String flowParent, @Nullable String result) {
		QueuePartitions.validateEngineName(queue);
		Retention retention = this.state.retention(queue, JobState.COMPLETED);
		if (!retention.isEnabled()) {
			ScriptExecutor.Invocation call = this.completionCalls.completeCall(queue, id, token, uniqueKey, null,
					result);
			return Replies
				.fenced(this.calls.withUniqueKey(queue, this.scripts.complete, call.keys(), call.args(), flowParent));
		}
		String[] candidates = this.state.retentions.takeTrims(queue, JobState.COMPLETED);
		if (candidates == null) {
			candidates = ScriptCalls.NO_IDS;
		}
		List<String> keys = this.state.keys(queue).forComplete(id, 2 + candidates.length);
		keys.add(this.state.keys(queue).completed());
		List<String> args = new ArrayList<>(7 + candidates.length);
		args.add(id.toString());
		args.add(ScriptCalls.argument(token));
		addTrim(queue, retention, candidates, keys, args);
		this.completionCalls.addResult(queue, result, args);
		this.state.keys(queue).addNotify(keys);
		if (uniqueKey != null) {
			keys.add(this.state.keys(queue).unique(uniqueKey));
		}
		this.state.declareEvents(queue, keys, args);
		List<Object> reply = this.calls.withUniqueKey(queue, this.scripts.complete, keys, args, flowParent);
		TransitionResult transition = Replies.fenced(reply);
		if (!transition.isStale() && reply.size() > 1) {
			String[] next = ScriptCalls.jobIds(Replies.list(reply.get(1)));
			if (next.length > 0) {
				this.state.retentions.trimNext(queue, JobState.COMPLETED, next);
			}
		}
		return transition;
	}

	/**
	 * Complete several jobs of a queue that hold no unique key; see
	 * {@link #completeAll(String, List, List, List)}.
	 * @param queue the queue
	 * @param ids the job ids
	 * @param tokens the fencing token of each id, in the same order
	 * @return per id, in order: applied or stale, or {@code null} when not known to be
	 * recorded
	 */
	public List<@Nullable TransitionResult> completeAll(String queue, List<JobId> ids, List<FencingToken> tokens) {
		List<@Nullable String> none = new ArrayList<>(ids.size());
		for (int i = 0; i < ids.size(); i++) {
			none.add(null);
		}
		return completeAll(queue, ids, tokens, none);
	}

	/**
	 * Complete several jobs of a queue: those without a unique key in one
	 * {@code complete_all} script call per {@value Engine#COMPLETE_BATCH} jobs (each job
	 * fenced on its own, the counters written once per call), the others one
	 * {@link #complete complete} call each; the calls pipelined on a standalone server. A
	 * queue that keeps its completed jobs completes them one by one.
	 * @param queue the queue
	 * @param ids the job ids
	 * @param tokens the fencing token of each id, in the same order
	 * @param uniqueKeys the unique key name of each id ({@link ClaimedJob#uniqueKey()}),
	 * or {@code null} for none, in the same order
	 * @return per id, in order: applied or stale like {@link #complete}, or {@code null}
	 * when it is not known to be recorded (no reply, an error reply, or not sent because
	 * an earlier call of the batch failed); a caller sends those again one by one
	 */
	public List<@Nullable TransitionResult> completeAll(String queue, List<JobId> ids, List<FencingToken> tokens,
			List<@Nullable String> uniqueKeys) {
		return completeAll(queue, ids, tokens, uniqueKeys, CompletionCalls.noResults(ids.size()));
	}

	/**
	 * Complete several jobs of a queue as {@link #completeAll(String, List, List, List)}
	 * does, each with its result stored in the same move as its completion (as
	 * {@link #complete(String, JobId, FencingToken, String, String)} stores it).
	 * @param queue the queue
	 * @param ids the job ids
	 * @param tokens the fencing token of each id, in the same order
	 * @param uniqueKeys the unique key name of each id, or {@code null}, in the same
	 * order
	 * @param jobResults the result of each id, or {@code null} for none, in the same
	 * order
	 * @return per id, as {@link #completeAll(String, List, List, List)} returns
	 */
	public List<@Nullable TransitionResult> completeAll(String queue, List<JobId> ids, List<FencingToken> tokens,
			List<@Nullable String> uniqueKeys, List<@Nullable String> jobResults) {
		return completeAll(queue, ids, tokens, uniqueKeys, CompletionCalls.noResults(ids.size()), jobResults);
	}

	/**
	 * Complete several jobs of a queue as
	 * {@link #completeAll(String, List, List, List, List)} does, where the caller knows
	 * which are children of a flow (or jobs of a batch): those are completed by one
	 * {@code complete} call each with their parent's keys declared
	 * ({@link #complete(String, JobId, FencingToken, String, String, String)}), not left
	 * by {@code complete_all} to be sent again.
	 * @param queue the queue
	 * @param ids the job ids
	 * @param tokens the fencing token of each id, in the same order
	 * @param uniqueKeys the unique key name of each id, or {@code null}, in the same
	 * order
	 * @param flowParents the parent of each id as {@link ClaimedJob#flowParent()} reads
	 * it, or {@code null} for none, in the same order
	 * @param jobResults the result of each id, or {@code null} for none, in the same
	 * order
	 * @return per id, as {@link #completeAll(String, List, List, List)} returns
	 */
	public List<@Nullable TransitionResult> completeAll(String queue, List<JobId> ids, List<FencingToken> tokens,
			List<@Nullable String> uniqueKeys, List<@Nullable String> flowParents, List<@Nullable String> jobResults) {
		Assert.notNull(ids, "'ids' must not be null");
		Assert.notNull(tokens, "'tokens' must not be null");
		Assert.isTrue(
				ids.size() == tokens.size() && ids.size() == uniqueKeys.size() && ids.size() == flowParents.size()
						&& ids.size() == jobResults.size(),
				() -> "one token, unique key, flow parent and result per id: " + tokens.size() + " tokens, "
						+ uniqueKeys.size() + " unique keys, " + flowParents.size() + " flow parents and "
						+ jobResults.size() + " results for " + ids.size() + " ids");
		if (this.state.retentions.keepsCompleted(queue)) {
			// each completion carries the trim candidates the previous one named
			List<@Nullable TransitionResult> results = new ArrayList<>(ids.size());
			for (int i = 0; i < ids.size(); i++) {
				results.add(complete(queue, ids.get(i), tokens.get(i), uniqueKeys.get(i), flowParents.get(i),
						jobResults.get(i)));
			}
			return results;
		}
		List<@Nullable TransitionResult> results = new ArrayList<>(Collections.nCopies(ids.size(), null));
		List<CompletionCalls.Completion> completions = this.completionCalls.completions(queue, ids, tokens, uniqueKeys,
				flowParents, jobResults);
		// the complete_all calls pipelined, then the complete calls pipelined
		for (boolean batched : new boolean[] { true, false }) {
			List<CompletionCalls.Completion> group = completions.stream()
				.filter((completion) -> (completion.call().script() == this.scripts.completeAll) == batched)
				.toList();
			List<ScriptExecutor.Outcome> outcomes = this.executor
				.executeCalls(group.stream().map(CompletionCalls.Completion::call).toList());
			for (int c = 0; c < outcomes.size(); c++) {
				this.completionCalls.read(queue, group.get(c), outcomes.get(c), results);
			}
		}
		return results;
	}

	/**
	 * Fail an attempt: active to schedule after {@code backoff} (to pending when the
	 * backoff is zero), or to dead when it was the last attempt.
	 * @param queue the queue
	 * @param id the job id
	 * @param token the fencing token
	 * @param error the error text kept on the row
	 * @param backoff how long to wait before the next attempt
	 * @return applied with the new state, or stale
	 */
	public TransitionResult retry(String queue, JobId id, FencingToken token, String error, Duration backoff) {
		return retry(queue, id, token, error, backoff, JobKeys.UNKNOWN);
	}

	/**
	 * Fail an attempt as {@link #retry(String, JobId, FencingToken, String, Duration)}
	 * does, declaring up front the keys a child of a flow (or a job of a batch) needs
	 * when this attempt dead-letters it: one round trip where asking takes two. Worth it
	 * only on an attempt that may be the last ({@link ClaimedJob#isLastAttempt()}).
	 * @param queue the queue
	 * @param id the job id
	 * @param token the fencing token
	 * @param error the error text kept on the row
	 * @param backoff how long to wait before the next attempt
	 * @param flowParent the parent as {@link ClaimedJob#flowParent()} reads it, or
	 * {@code null} when the job has none or the caller does not know
	 * @return applied with the new state, or stale
	 */
	public TransitionResult retry(String queue, JobId id, FencingToken token, String error, Duration backoff,
			@Nullable String flowParent) {
		return retry(queue, id, token, error, backoff, JobKeys.flowParent(flowParent));
	}

	/**
	 * Fail an attempt as {@link #retry(String, JobId, FencingToken, String, Duration)}
	 * does, with the keys the job needs declared on the first call (a claimed job's
	 * {@link ClaimedJob#keys(boolean)}): one script call whatever unique key, lane or
	 * parent the job has.
	 * @param queue the queue
	 * @param id the job id
	 * @param token the fencing token
	 * @param error the error text kept on the row
	 * @param backoff how long to wait before the next attempt
	 * @param keys what the caller knows the job needs
	 * @return applied with the new state, or stale
	 */
	public TransitionResult retry(String queue, JobId id, FencingToken token, String error, Duration backoff,
			JobKeys keys) {
		Assert.isTrue(backoff != null && !backoff.isNegative(), () -> "backoff must not be negative, was " + backoff);
		return fail(queue, id, token, error, backoff, false, false, keys);
	}

	/**
	 * Put a claimed job off until {@code delay} from now without spending its attempt
	 * (the handler asked to run later): active to schedule (to pending when the delay is
	 * zero), never to dead.
	 * @param queue the queue
	 * @param id the job id
	 * @param token the fencing token
	 * @param reason why, kept on the row as its last error
	 * @param delay how long to wait before the next attempt
	 * @return applied with the new state, or stale
	 */
	public TransitionResult snooze(String queue, JobId id, FencingToken token, String reason, Duration delay) {
		return snooze(queue, id, token, reason, delay, JobKeys.UNKNOWN);
	}

	/**
	 * Put a claimed job off as
	 * {@link #snooze(String, JobId, FencingToken, String, Duration)} does, with the keys
	 * the job needs declared on the first call.
	 * @param queue the queue
	 * @param id the job id
	 * @param token the fencing token
	 * @param reason why, kept on the row as its last error
	 * @param delay how long to wait before the next attempt
	 * @param keys what the caller knows the job needs
	 * @return applied with the new state, or stale
	 */
	public TransitionResult snooze(String queue, JobId id, FencingToken token, String reason, Duration delay,
			JobKeys keys) {
		Assert.isTrue(delay != null && !delay.isNegative(), () -> "delay must not be negative, was " + delay);
		EnqueueOptions.checkDelay(delay);
		return fail(queue, id, token, reason, delay, false, true, keys);
	}

	/**
	 * Dead-letter a job at once, whatever attempts it has left (an unreadable payload, a
	 * fatal error).
	 * @param queue the queue
	 * @param id the job id
	 * @param token the fencing token
	 * @param error the reason kept on the row
	 * @return applied, or stale
	 */
	public TransitionResult deadLetter(String queue, JobId id, FencingToken token, String error) {
		return deadLetter(queue, id, token, error, JobKeys.UNKNOWN);
	}

	/**
	 * Dead-letter a job at once as
	 * {@link #deadLetter(String, JobId, FencingToken, String)} does, declaring up front
	 * the keys a child of a flow (or a job of a batch) needs: one round trip where asking
	 * takes two.
	 * @param queue the queue
	 * @param id the job id
	 * @param token the fencing token
	 * @param error the reason kept on the row
	 * @param flowParent the parent as {@link ClaimedJob#flowParent()} reads it, or
	 * {@code null} when the job has none or the caller does not know
	 * @return applied, or stale
	 */
	public TransitionResult deadLetter(String queue, JobId id, FencingToken token, String error,
			@Nullable String flowParent) {
		return deadLetter(queue, id, token, error, JobKeys.flowParent(flowParent));
	}

	/**
	 * Dead-letter a job at once, with the keys it needs declared on the first call.
	 * @param queue the queue
	 * @param id the job id
	 * @param token the fencing token
	 * @param error the error text kept on the row
	 * @param keys what the caller knows the job needs
	 * @return applied, or stale
	 */
	public TransitionResult deadLetter(String queue, JobId id, FencingToken token, String error, JobKeys keys) {
		return fail(queue, id, token, error, Duration.ZERO, true, false, keys);
	}

	private TransitionResult fail(String queue, JobId id, FencingToken token, String error, Duration backoff,
			boolean dead, boolean snooze, JobKeys known) {
		Assert.notNull(error, "'error' must not be null");
		List<String> keys = new ArrayList<>(9 + RETAIN_BATCH);
		keys.addAll(this.state.keys(queue).forRetry(id, 0));
		List<String> args = new ArrayList<>(8 + RETAIN_BATCH);
		args.addAll(List.of(id.toString(), ScriptCalls.argument(token), error, Long.toString(backoff.toMillis()),
				dead ? "1" : "0", snooze ? "1" : "0"));
		Retention retention = this.state.retention(queue, JobState.DEAD);
		String[] candidates = ScriptCalls.NO_IDS;
		if (retention.isEnabled() && !snooze) {
			candidates = this.state.retentions.takeTrims(queue, JobState.DEAD);
			candidates = (candidates != null) ? candidates : ScriptCalls.NO_IDS;
			addTrim(queue, retention, candidates, keys, args);
		}
		this.state.keys(queue).addNotify(keys);
		this.state.declareEvents(queue, keys, args);
		List<Object> reply = this.calls.withKeys(queue, this.scripts.retry, keys, args, known);
		TransitionResult result = Replies.fenced(reply);
		if (result.isStale()) {
			if (candidates.length > 0) {
				this.state.retentions.giveBack(queue, JobState.DEAD, candidates);
			}
			return result;
		}
		JobState state = JobState.fromValue(Replies.string(reply.get(1)));
		if (reply.size() > 3) {
			String[] next = ScriptCalls.jobIds(Replies.list(reply.get(3)));
			if (next.length > 0) {
				this.state.retentions.trimNext(queue, JobState.DEAD, next);
			}
		}
		else if (candidates.length > 0) {
			this.state.retentions.giveBack(queue, JobState.DEAD, candidates);
		}
		return TransitionResult.applied(state, Replies.instant(reply.get(2)));
	}

	/**
	 * Add the trim of a history location to a completion's call: its bounds, then each
	 * candidate the previous call named as over them, its row declared.
	 */
	private void addTrim(String queue, Retention retention, String[] candidates, List<String> keys, List<String> args) {
		args.add(Long.toString(retention.count()));
		args.add(Long.toString(retention.age().toMillis()));
		String rows = this.state.keys(queue).rowPrefix();
		for (String candidate : candidates) {
			keys.add(rows + candidate);
			args.add(candidate);
		}
	}

	/**
	 * Renew a job's lease to {@code lease} from server time.
	 * @param queue the queue
	 * @param id the job id
	 * @param token the fencing token
	 * @param lease the new lease
	 * @return applied with the new deadline, or stale
	 */
	public TransitionResult extend(String queue, JobId id, FencingToken token, Duration lease) {
		ScriptCalls.requirePositive(lease, "lease");
		List<Object> reply = this.executor.execute(this.scripts.extend, this.state.keys(queue).forExtend(id),
				List.of(id.toString(), ScriptCalls.argument(token), Long.toString(lease.toMillis())));
		TransitionResult result = Replies.fenced(reply);
		return result.isStale() ? result : TransitionResult.applied(JobState.ACTIVE, Replies.instant(reply.get(1)));
	}

	/**
	 * Record how far a running job got, in percent, on its row (field {@code progress}).
	 * @param queue the queue
	 * @param id the job id
	 * @param token the fencing token
	 * @param percent from 0 to 100
	 * @return applied, or stale if the caller's lease was lost (nothing written)
	 * @throws IllegalArgumentException if the percent is outside 0-100 (nothing written)
	 */
	public TransitionResult progress(String queue, JobId id, FencingToken token, int percent) {
		Assert.isTrue(percent >= 0 && percent <= 100, () -> "progress must be between 0 and 100, was " + percent);
		return progress(queue, id, token, "percent", Integer.toString(percent));
	}

	/**
	 * Record a running job's progress as an object, on its row (field
	 * {@code progress_data}).
	 * @param queue the queue
	 * @param id the job id
	 * @param token the fencing token
	 * @param data the object as the payload converter wrote it, at most
	 * {@link Results#MAX_PROGRESS_BYTES}
	 * @return applied, or stale if the caller's lease was lost (nothing written)
	 * @throws IllegalArgumentException if the data is over its cap (nothing written)
	 */
	public TransitionResult progress(String queue, JobId id, FencingToken token, String data) {
		Assert.notNull(data, "'data' must not be null");
		long size = data.getBytes(StandardCharsets.UTF_8).length;
		Assert.isTrue(size <= Results.MAX_PROGRESS_BYTES, () -> "progress of job " + id + " is " + size
				+ " bytes, larger than " + Results.MAX_PROGRESS_BYTES + " bytes; nothing was written");
		return progress(queue, id, token, "data", data);
	}

	private TransitionResult progress(String queue, JobId id, FencingToken token, String kind, String value) {
		QueuePartitions.validateEngineName(queue);
		List<String> keys = this.state.keys(queue).forExtend(id);
		List<String> args = new ArrayList<>(6);
		Collections.addAll(args, id.toString(), ScriptCalls.argument(token), kind, value);
		this.state.declareEvents(queue, keys, args);
		List<Object> reply = this.executor.execute(this.scripts.progress, keys, args);
		return Replies.fenced(reply);
	}

	/**
	 * Hand a claimed job back: active to pending, without spending an attempt (graceful
	 * stop). A job whose cancel was asked for is retired as cancelled instead, and its
	 * unique key, if it names one, released.
	 * @param queue the queue
	 * @param id the job id
	 * @param token the fencing token
	 * @return applied, or stale
	 */
	public TransitionResult release(String queue, JobId id, FencingToken token) {
		return release(queue, id, token, JobKeys.UNKNOWN);
	}

	/**
	 * Hand a claimed job back as {@link #release(String, JobId, FencingToken)} does, with
	 * the keys it needs declared on the first call.
	 * @param queue the queue
	 * @param id the job id
	 * @param token the fencing token
	 * @param known what the caller knows the job needs
	 * @return applied, or stale
	 */
	public TransitionResult release(String queue, JobId id, FencingToken token, JobKeys known) {
		List<String> keys = this.state.keys(queue).forRelease(id);
		List<String> args = new ArrayList<>(4);
		Collections.addAll(args, id.toString(), ScriptCalls.argument(token));
		this.state.declareEvents(queue, keys, args);
		List<Object> reply = this.calls.withKeys(queue, this.scripts.release, keys, args, known);
		TransitionResult result = Replies.fenced(reply);
		return result.isStale() ? result
				: TransitionResult.applied(JobState.fromValue(Replies.string(reply.get(1))), null);
	}

}
