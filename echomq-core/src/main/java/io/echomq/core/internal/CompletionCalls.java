package io.echomq.core.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import io.echomq.core.JobId;
import io.echomq.core.TransitionResult;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * The script calls that complete jobs of a queue without retention, and the reading of
 * their replies: one {@code complete_all} call per {@value Engine#COMPLETE_BATCH} plain
 * jobs, one {@code complete} call per job that holds a unique key or has a flow parent.
 *
 * @author EchoMQ
 */
final class CompletionCalls extends EnginePart {

	/** The argument that introduces a result (RESULT_TAG of result.lua). */
	private static final String RESULT_TAG = "=result";

	private final Results results;

	CompletionCalls(EngineState state, Results results) {
		super(state);
		this.results = results;
	}

	/** The tail of a completion's arguments that carries a result (result.lua). */
	void addResult(String queue, @Nullable String result, List<String> args) {
		if (result != null) {
			args.add(RESULT_TAG);
			args.add(result);
			args.add(Long.toString(resultTtl(queue)));
		}
	}

	private long resultTtl(String queue) {
		return this.results.ttl(queue).toMillis();
	}

	/**
	 * The script calls that complete jobs: jobs without a unique key or a known flow
	 * parent in one {@code complete_all} call per {@value Engine#COMPLETE_BATCH}, then
	 * one {@code complete} call per job that holds one or has one, its keys declared.
	 */
	List<Completion> completions(String queue, List<JobId> ids, List<FencingToken> tokens,
			List<@Nullable String> uniqueKeys, List<@Nullable String> flowParents, List<@Nullable String> jobResults) {
		List<Integer> batched = new ArrayList<>(ids.size());
		List<Integer> single = new ArrayList<>();
		for (int i = 0; i < ids.size(); i++) {
			Assert.notNull(ids.get(i), "ids must not contain null");
			((uniqueKeys.get(i) == null && flowParents.get(i) == null) ? batched : single).add(i);
		}
		List<Completion> completions = new ArrayList<>(single.size() + 1);
		for (int from = 0; from < batched.size(); from += Engine.COMPLETE_BATCH) {
			List<Integer> chunk = batched.subList(from, Math.min(from + Engine.COMPLETE_BATCH, batched.size()));
			completions.add(new Completion(new ScriptExecutor.Call(this.scripts.completeAll,
					completeAllCall(queue, ids, tokens, jobResults, chunk)), chunk, false));
		}
		for (int i : single) {
			String flowParent = flowParents.get(i);
			completions.add(
					new Completion(
							new ScriptExecutor.Call(this.scripts.complete, completeCall(queue, ids.get(i),
									tokens.get(i), uniqueKeys.get(i), flowParent, jobResults.get(i))),
							List.of(i), flowParent != null));
		}
		return completions;
	}

	/**
	 * Record what a completion call did for each of its jobs: applied or stale, left
	 * {@code null} when it did not apply or asked for a key it was not given.
	 */
	void read(String queue, Completion completion, ScriptExecutor.Outcome outcome,
			List<@Nullable TransitionResult> results) {
		if (completion.call().script() == this.scripts.completeAll) {
			readCompleteAll(outcome, completion.jobs(), results);
			return;
		}
		int index = completion.jobs().get(0);
		readComplete(outcome, index, results);
		TransitionResult result = results.get(index);
		if (completion.flow() && result != null && result.isApplied()) {
			// the child wrote an outbox record or settled its parent: relay it now, not
			// at the next reap
			this.state.signals().outboxWritten(queue);
		}
	}

	/**
	 * One {@code complete} call for a job of a queue without retention: its result key
	 * declared when it has a result, its unique key when it holds one, its parent's keys
	 * when it is a child of a flow the caller knows of.
	 */
	ScriptExecutor.Invocation completeCall(String queue, JobId id, FencingToken token, @Nullable String uniqueKey,
			@Nullable String flowParent, @Nullable String result) {
		List<String> keys = this.state.keys(queue).forComplete(id, 4);
		List<String> args = new ArrayList<>(5);
		args.add(id.toString());
		args.add(ScriptCalls.argument(token));
		if (result != null) {
			keys.add(this.state.keys(queue).result(id));
			addResult(queue, result, args);
		}
		this.state.keys(queue).addNotify(keys);
		if (uniqueKey != null) {
			keys.add(this.state.keys(queue).unique(uniqueKey));
		}
		if (flowParent != null) {
			this.calls.declareFlow(queue, flowParent, keys);
		}
		this.state.declareEvents(queue, keys, args);
		return new ScriptExecutor.Invocation(keys, args);
	}

	private static void readComplete(ScriptExecutor.Outcome outcome, int index,
			List<@Nullable TransitionResult> results) {
		if (outcome.status() == ScriptExecutor.Status.APPLIED && ScriptCalls.uniqueKeyNeeded(outcome.reply()) == null
				&& ScriptCalls.flowKeysNeeded(outcome.reply()) == null) {
			results.set(index, Replies.fenced(outcome.reply()));
		}
	}

	private ScriptExecutor.Invocation completeAllCall(String queue, List<JobId> ids, List<FencingToken> tokens,
			List<@Nullable String> jobResults, List<Integer> chunk) {
		QueueKeys queueKeys = this.state.keys(queue);
		String rows = queueKeys.rowPrefix();
		List<String> keys = queueKeys.forCompleteAll(chunk.size() + 2);
		List<String> args = new ArrayList<>(2 * chunk.size());
		List<String> resultKeys = new ArrayList<>();
		List<String> resultArgs = new ArrayList<>();
		for (int j = 0; j < chunk.size(); j++) {
			int i = chunk.get(j);
			String id = ids.get(i).toString();
			keys.add(rows + id);
			args.add(id);
			args.add(ScriptCalls.argument(tokens.get(i)));
			String result = jobResults.get(i);
			if (result != null) {
				resultKeys.add(queueKeys.result(ids.get(i)));
				resultArgs.add(Integer.toString(j + 1));
				resultArgs.add(result);
			}
		}
		if (resultKeys.isEmpty()) {
			queueKeys.addNotify(keys);
			this.state.declareEvents(queue, keys, args);
			return new ScriptExecutor.Invocation(keys, args);
		}
		// the head block of complete_all.lua: the tag, how many results, their TTL, then
		// each result's job index and text
		keys.addAll(resultKeys);
		queueKeys.addNotify(keys);
		List<String> withResults = new ArrayList<>(3 + resultArgs.size() + args.size());
		withResults.add(RESULT_TAG);
		withResults.add(Integer.toString(resultKeys.size()));
		withResults.add(Long.toString(resultTtl(queue)));
		withResults.addAll(resultArgs);
		withResults.addAll(args);
		this.state.declareEvents(queue, keys, withResults);
		return new ScriptExecutor.Invocation(keys, withResults);
	}

	/**
	 * No result for any of {@code size} jobs.
	 * @param size how many jobs
	 * @return a list of {@code null}s
	 */
	static List<@Nullable String> noResults(int size) {
		return Collections.nCopies(size, null);
	}

	private static void readCompleteAll(ScriptExecutor.Outcome outcome, List<Integer> chunk,
			List<@Nullable TransitionResult> results) {
		if (outcome.status() != ScriptExecutor.Status.APPLIED) {
			return;
		}
		for (int j = 0; j < chunk.size() && j < outcome.reply().size(); j++) {
			List<Object> entry = Replies.list(outcome.reply().get(j));
			// a row naming a unique key the claim did not report, or a child of a flow,
			// is
			// left for complete, one by one
			if (ScriptCalls.uniqueKeyNeeded(entry) == null && ScriptCalls.flowKeysNeeded(entry) == null) {
				results.set(chunk.get(j), Replies.fenced(entry));
			}
		}
	}

	/**
	 * One script call that completes jobs, and the indexes of the jobs it completes.
	 *
	 * @param call the call
	 * @param jobs the indexes, in the call's order
	 * @param flow whether the call declares a flow parent's keys (a {@code complete}
	 * call)
	 */
	record Completion(ScriptExecutor.Call call, List<Integer> jobs, boolean flow) {

	}

}
