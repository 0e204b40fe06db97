package io.echomq.core.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.echomq.core.EchoMqNode;
import io.echomq.core.FlowLimits;
import io.echomq.core.JobId;
import io.echomq.core.JobState;
import io.echomq.core.QueuePartitions;
import io.echomq.core.TransitionResult;
import io.echomq.core.internal.CompletionCalls.Completion;
import io.echomq.core.internal.Pages.Page;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * The claim: pending to active with a fresh fencing token, from the queue's own pending
 * set and from its lanes in turn, within the queue's flow limits; and the completion of a
 * batch that claims the next jobs in the same round trip.
 *
 * @author EchoMQ
 */
public class Claims extends EnginePart {

	private static final int MAX_CLAIM_ROUNDS = 3;

	private static final int MAX_PAGE = 1_000;

	private static final int PEEK_SLACK = 16;

	/** Where the next claim of each queue starts: the head the last claim returned. */
	private final Map<String, Page> hints = new ConcurrentHashMap<>();

	/** How long each queue stays paused, as the last claim found it. */
	private final Map<String, Long> pauses = new ConcurrentHashMap<>();

	/** The queues whose last claim found fair lanes. */
	private final Set<String> laneQueues = ConcurrentHashMap.newKeySet();

	/**
	 * Whose turn it is on each queue with lanes: the lanes' or the queue's own pending.
	 */
	private final Map<String, AtomicInteger> turns = new ConcurrentHashMap<>();

	private final Outcomes outcomes;

	private final LaneClaimer lanes;

	Claims(EngineState state, Outcomes outcomes) {
		super(state);
		this.outcomes = outcomes;
		this.lanes = new LaneClaimer(this.state);
	}

	/**
	 * Create claims over the same state and outcomes as others, with claim hints of their
	 * own; a subclass may decorate the verbs (a test that makes a claim fail, say).
	 * @param claims the claims whose state and outcomes to use
	 */
	protected Claims(Claims claims) {
		this(claims.state, claims.outcomes);
	}

	List<Script> laneScripts() {
		return this.lanes.scripts();
	}

	/**
	 * Claim up to {@code max} jobs: pending to active, each with a fresh fencing token
	 * and a lease of {@code lease} from server time.
	 * <p>
	 * Members of pending that cannot be claimed (not JOB ids, malformed rows) are left
	 * where they are and passed over, however many there are: the claim pages on past
	 * them, in pages that grow to {@value #MAX_PAGE} members, until it has {@code max}
	 * jobs or reaches the end of pending.
	 * @param queue the queue
	 * @param lease how long the lease lasts unless extended
	 * @param max the most jobs to claim
	 * @return the claimed jobs, possibly none
	 */
	public List<ClaimedJob> claim(String queue, Duration lease, int max) {
		return claim(queue, lease, max, FlowLimits.none()).jobs();
	}

	/**
	 * Claim up to {@code max} jobs as {@link #claim(String, Duration, int)} does, within
	 * the queue's cluster-wide flow limits: the claim script takes no more than the cap
	 * on active jobs and the rate window allow, on server time, and says which limit held
	 * it back and when the rate window has room again.
	 * @param queue the queue
	 * @param lease how long the lease lasts unless extended
	 * @param max the most jobs to claim
	 * @param limits the queue's flow limits
	 * @return the claimed jobs and the limit that held the claim back, if any
	 */
	public ClaimResult claim(String queue, Duration lease, int max, FlowLimits limits) {
		return claim(queue, lease, max, limits, null);
	}

	/**
	 * Claim up to {@code max} jobs as {@link #claim(String, Duration, int, FlowLimits)}
	 * does, writing the claiming node's name to each claimed row's
	 * {@value EchoMqNode#CLAIMED_BY_FIELD} field in the {@code HSET} that makes it
	 * active. The field names the last claimant: it stays when the job leaves active and
	 * the next claim overwrites it.
	 * @param queue the queue
	 * @param lease how long the lease lasts unless extended
	 * @param max the most jobs to claim
	 * @param limits the queue's flow limits
	 * @param owner the claiming node, or {@code null} to record none (the field is
	 * deleted)
	 * @return the claimed jobs and the limit that held the claim back, if any
	 */
	public ClaimResult claim(String queue, Duration lease, int max, FlowLimits limits, @Nullable EchoMqNode owner) {
		QueuePartitions.validateEngineName(queue);
		ScriptCalls.requirePositive(lease, "lease");
		Assert.isTrue(max > 0, () -> "max must be positive, was " + max);
		Assert.notNull(limits, "'limits' must not be null");
		if (this.laneQueues.contains(queue) && lanesTurn(queue)) {
			ClaimResult fromLanes = claimLanes(queue, lease, max, limits, owner);
			if (fromLanes.jobs().size() >= max || LaneClaimer.isQueueLimit(fromLanes.limit())) {
				return fromLanes;
			}
			return merge(fromLanes, claimPending(queue, lease, max - fromLanes.jobs().size(), limits, owner));
		}
		ClaimResult fromPending = claimPending(queue, lease, max, limits, owner);
		if (fromPending.jobs().size() >= max || LaneClaimer.isQueueLimit(fromPending.limit())
				|| !this.laneQueues.contains(queue) || this.pauses.containsKey(queue)) {
			return fromPending;
		}
		return merge(fromPending, claimLanes(queue, lease, max - fromPending.jobs().size(), limits, owner));
	}

	/**
	 * Jobs without a lane share the queue with the lanes as one more lane would: the
	 * claims of a queue with lanes alternate between serving its own pending set first
	 * and serving the lanes first.
	 */
	private boolean lanesTurn(String queue) {
		return (this.turns.computeIfAbsent(queue, (name) -> new AtomicInteger()).getAndIncrement() & 1) == 0;
	}

	private ClaimResult claimLanes(String queue, Duration lease, int max, FlowLimits limits,
			@Nullable EchoMqNode owner) {
		LaneClaimer.Outcome outcome = this.lanes.claim(this.state.keys(queue), lease, max, limits, owner);
		if (outcome.ringEmpty()) {
			this.laneQueues.remove(queue);
		}
		return outcome.result();
	}

	private static ClaimResult merge(ClaimResult first, ClaimResult second) {
		List<ClaimedJob> all = new ArrayList<>(first.jobs());
		all.addAll(second.jobs());
		ClaimResult last = (second.limit() != null) ? second : first;
		return new ClaimResult(all, last.limit(), last.retryAfter(), first.expired() + second.expired());
	}

	/**
	 * Claim from the queue's own pending set (jobs without a lane), learning from the
	 * reply whether lanes have work.
	 */
	private ClaimResult claimPending(String queue, Duration lease, int max, FlowLimits limits,
			@Nullable EchoMqNode owner) {
		Assert.isTrue(max > 0, () -> "max must be positive, was " + max);
		String pending = this.state.keys(queue).pending();
		ClaimResult.Limit limit = null;
		Duration retryAfter = null;
		List<ClaimedJob> claimed = new ArrayList<>();
		int size = max + PEEK_SLACK;
		Page page = this.hints.remove(queue);
		if (page == null) {
			page = this.pages.page(queue, JobState.PENDING, pending, 0, size);
		}
		int contended = 0;
		int expired = 0;
		boolean asked = false;
		while (claimed.size() < max) {
			if (page.ids().length == 0) {
				if (page.members() == 0) {
					break;
				}
				size = grow(size);
				page = this.pages.page(queue, JobState.PENDING, pending, page.offset() + page.members(), size);
				continue;
			}
			ScriptExecutor.Invocation call = claimCall(queue, lease, max - claimed.size(), max, size, page, limits,
					owner);
			ClaimRound round = claimRound(queue, page,
					this.executor.execute(this.scripts.claim, call.keys(), call.args()));
			asked = true;
			if (round.paused()) {
				break;
			}
			expired += round.expired();
			claimed.addAll(round.jobs());
			if (round.limit() != null) {
				limit = round.limit();
				retryAfter = round.retryAfter();
				break;
			}
			if (claimed.size() >= max) {
				keepHint(queue, round);
				break;
			}
			if (round.jobs().isEmpty()) {
				if (round.skipped() == 0 && round.expired() == 0 && page.foreign() == 0
						&& ++contended >= MAX_CLAIM_ROUNDS) {
					break;
				}
				size = grow(size);
			}
			page = round.next();
		}
		if (!asked) {
			// pending was empty: whether lanes have work is one ZCARD away
			Long lanes = this.template.opsForZSet().zCard(this.state.keys(queue).lanes());
			noteLanes(queue, (lanes != null) ? lanes : 0);
		}
		return new ClaimResult(claimed, limit, retryAfter, expired);
	}

	/**
	 * The keys and arguments of one {@code claim} call: take up to {@code want} of the
	 * page's candidates; the reply's hint is the head of pending ({@code full} ids) when
	 * it took them all, else the next {@code size} ids past the page.
	 */
	private ScriptExecutor.Invocation claimCall(String queue, Duration lease, int want, int full, int size, Page page,
			FlowLimits limits, @Nullable EchoMqNode owner) {
		QueueKeys queueKeys = this.state.keys(queue);
		List<String> keys = ClaimCall.keys(queueKeys, 1 + page.ids().length);
		keys.add(queueKeys.pending());
		List<String> args = ClaimCall.args(lease, want, limits, owner, 4 + page.ids().length);
		args.add(Integer.toString(full));
		args.add(Integer.toString(size));
		args.add(Long.toString(page.offset()));
		args.add(Integer.toString(page.foreign()));
		String rows = queueKeys.rowPrefix();
		for (String candidate : page.ids()) {
			keys.add(rows + candidate);
			args.add(candidate);
		}
		keys.add(queueKeys.paused());
		ClaimCall.declareLimits(queueKeys, keys, args);
		ClaimCall.declareExpiry(queueKeys, keys, args);
		this.state.declareEvents(queue, keys, args);
		return new ScriptExecutor.Invocation(keys, args);
	}

	/**
	 * Read a {@code claim} reply, noting what it says of the queue: its clock, whether it
	 * is paused cluster-wide, whether lanes have work, the rows it skipped.
	 */
	private ClaimRound claimRound(String queue, Page page, List<Object> raw) {
		this.state.learnClock(raw);
		ClaimCall.Reply reply = ClaimCall.read(queue, raw);
		if (reply.paused()) {
			this.pauses.put(queue, reply.pauseLeft());
			return new ClaimRound(List.of(), 0, page, -1, null, null, true, 0);
		}
		this.pauses.remove(queue);
		noteLanes(queue, reply.lanes());
		Map<String, String> skipped = reply.skipped();
		this.state.suspects.addAll(queue, JobState.PENDING, skipped.keySet());
		Page next = this.pages.toPage(queue, reply.hint(), reply.hintFrom());
		int expired = (int) reply.expired();
		if (reply.limit().isEmpty()) {
			return new ClaimRound(reply.jobs(), skipped.size(), next, reply.hintFrom(), null, null, false, expired);
		}
		Duration retryAfter = ClaimCall.retryAfter(reply.reopen(), reply.now(),
				page.ids().length > reply.jobs().size() + skipped.size() + expired);
		return new ClaimRound(reply.jobs(), skipped.size(), next, reply.hintFrom(),
				ClaimResult.Limit.valueOf(reply.limit()), retryAfter, false, expired);
	}

	/**
	 * Keep the head of pending a claim that took its maximum returned, as the next
	 * claim's candidates: that claim then needs no {@code ZRANGE} of its own.
	 */
	private void keepHint(String queue, ClaimRound round) {
		if (round.hintFrom() == 0 && round.next().members() > 0) {
			this.hints.put(queue, round.next());
		}
	}

	private void noteLanes(String queue, long lanes) {
		if (lanes > 0) {
			this.laneQueues.add(queue);
		}
		else {
			this.laneQueues.remove(queue);
		}
	}

	/**
	 * Return how long the queue stays paused cluster-wide, as the last claim from this
	 * engine found it: for a poller to wait no longer than a timed pause lasts.
	 * @param queue the queue
	 * @return the time left, {@link Duration#ZERO} when the last claim found the queue
	 * not paused, or {@code null} when it was paused until resumed
	 */
	public @Nullable Duration lastClaimPause(String queue) {
		Long left = this.pauses.get(queue);
		if (left == null) {
			return Duration.ZERO;
		}
		return (left < 0) ? null : Duration.ofMillis(left);
	}

	/**
	 * Complete several jobs as {@link Outcomes#completeAll(String, List, List, List)}
	 * does and, in the same round trip, claim up to {@code max} jobs from the queue's
	 * pending set for the slots the completions free: a busy worker's next jobs come back
	 * with the reply to its last ones. The completions and the claim are two script
	 * calls, pipelined in that order, each its own atomic transition: a claim that fails
	 * leaves the completions' outcomes as they are.
	 * <p>
	 * The claim is made only where it can be one call: the candidates are the head of
	 * pending the last claim returned (shared by concurrent callers: a candidate another
	 * claim took first is passed over, and each claim returns the head as it left it),
	 * the queue has no lanes with work, is not paused and keeps no completed history.
	 * Otherwise this completes only, and the claim's result is empty; the caller claims
	 * as usual. Jobs holding a unique key are completed by a {@code complete} call each,
	 * in the same round trip. The claim respects the queue's flow limits like
	 * {@link #claim(String, Duration, int, FlowLimits, EchoMqNode)}; where the server had
	 * not loaded the completion script yet, the completions run again by body after the
	 * claim, which then counts the jobs they free as still active (it claims fewer, never
	 * more than the limits allow).
	 * @param queue the queue
	 * @param ids the job ids, at most {@value Engine#COMPLETE_BATCH}
	 * @param tokens the fencing token of each id, in the same order
	 * @param uniqueKeys the unique key name of each id, or {@code null} for none
	 * @param lease how long the claimed jobs' leases last unless extended
	 * @param max the most jobs to claim
	 * @param limits the queue's flow limits
	 * @param owner the claiming node, or {@code null} to record none
	 * @return the completions' outcomes as {@code completeAll} returns them, and the
	 * claimed jobs
	 */
	public CompleteAndClaimResult completeAllAndClaim(String queue, List<JobId> ids, List<FencingToken> tokens,
			List<@Nullable String> uniqueKeys, Duration lease, int max, FlowLimits limits, @Nullable EchoMqNode owner) {
		return completeAllAndClaim(queue, ids, tokens, uniqueKeys, CompletionCalls.noResults(ids.size()), lease, max,
				limits, owner);
	}

	/**
	 * Complete several jobs, each with its result, and claim the next jobs in the same
	 * round trip, as
	 * {@link #completeAllAndClaim(String, List, List, List, Duration, int, FlowLimits, EchoMqNode)}
	 * does.
	 * @param queue the queue
	 * @param ids the job ids
	 * @param tokens the fencing token of each id, in the same order
	 * @param uniqueKeys the unique key name of each id, or {@code null} for none
	 * @param jobResults the result of each id, or {@code null} for none
	 * @param lease the lease of the claimed jobs
	 * @param max the most jobs to claim
	 * @param limits the queue's flow limits
	 * @param owner the node that claims, or {@code null}
	 * @return the completions' outcomes and the claimed jobs
	 */
	public CompleteAndClaimResult completeAllAndClaim(String queue, List<JobId> ids, List<FencingToken> tokens,
			List<@Nullable String> uniqueKeys, List<@Nullable String> jobResults, Duration lease, int max,
			FlowLimits limits, @Nullable EchoMqNode owner) {
		return completeAllAndClaim(queue, ids, tokens, uniqueKeys, CompletionCalls.noResults(ids.size()), jobResults,
				lease, max, limits, owner);
	}

	/**
	 * Complete several jobs, each with its result, and claim the next jobs in the same
	 * round trip, as
	 * {@link #completeAllAndClaim(String, List, List, List, List, Duration, int, FlowLimits, EchoMqNode)}
	 * does, where the caller knows which jobs are children of a flow (or jobs of a
	 * batch): those are completed by a {@code complete} call each with their parent's
	 * keys declared, as
	 * {@link Outcomes#completeAll(String, List, List, List, List, List)} completes them.
	 * @param queue the queue
	 * @param ids the job ids
	 * @param tokens the fencing token of each id, in the same order
	 * @param uniqueKeys the unique key name of each id, or {@code null} for none
	 * @param flowParents the parent of each id as {@link ClaimedJob#flowParent()} reads
	 * it, or {@code null} for none
	 * @param jobResults the result of each id, or {@code null} for none
	 * @param lease the lease of the claimed jobs
	 * @param max the most jobs to claim
	 * @param limits the queue's flow limits
	 * @param owner the node that claims, or {@code null}
	 * @return the completions' outcomes and the claimed jobs
	 */
	public CompleteAndClaimResult completeAllAndClaim(String queue, List<JobId> ids, List<FencingToken> tokens,
			List<@Nullable String> uniqueKeys, List<@Nullable String> flowParents, List<@Nullable String> jobResults,
			Duration lease, int max, FlowLimits limits, @Nullable EchoMqNode owner) {
		QueuePartitions.validateEngineName(queue);
		ScriptCalls.requirePositive(lease, "lease");
		Assert.isTrue(max > 0, () -> "max must be positive, was " + max);
		Assert.notNull(limits, "'limits' must not be null");
		ClaimResult none = new ClaimResult(List.of(), null, null);
		if (ids.isEmpty() || ids.size() > Engine.COMPLETE_BATCH || ids.size() != tokens.size()
				|| ids.size() != uniqueKeys.size() || ids.size() != flowParents.size()
				|| ids.size() != jobResults.size() || this.laneQueues.contains(queue) || this.pauses.containsKey(queue)
				|| this.state.retentions.keepsCompleted(queue)) {
			return new CompleteAndClaimResult(
					this.outcomes.completeAll(queue, ids, tokens, uniqueKeys, flowParents, jobResults), none);
		}
		// the hint stays for other completion threads: a candidate another claim took
		// first is passed over
		Page page = this.hints.get(queue);
		if (page == null || page.ids().length == 0) {
			return new CompleteAndClaimResult(
					this.outcomes.completeAll(queue, ids, tokens, uniqueKeys, flowParents, jobResults), none);
		}
		List<Completion> completions = this.outcomes.completionCalls.completions(queue, ids, tokens, uniqueKeys,
				flowParents, jobResults);
		List<ScriptExecutor.Call> calls = new ArrayList<>(completions.size() + 1);
		completions.forEach((completion) -> calls.add(completion.call()));
		calls.add(new ScriptExecutor.Call(this.scripts.claim,
				claimCall(queue, lease, max, max + PEEK_SLACK, max + PEEK_SLACK, page, limits, owner)));
		List<ScriptExecutor.Outcome> outcomes = this.executor.executeCalls(calls);
		List<@Nullable TransitionResult> results = new ArrayList<>(Collections.nCopies(ids.size(), null));
		for (int c = 0; c < completions.size(); c++) {
			this.outcomes.completionCalls.read(queue, completions.get(c), outcomes.get(c), results);
		}
		ScriptExecutor.Outcome claimed = outcomes.get(completions.size());
		if (claimed.status() != ScriptExecutor.Status.APPLIED) {
			return new CompleteAndClaimResult(results, none);
		}
		ClaimRound round = claimRound(queue, page, claimed.reply());
		if (round.paused() || round.hintFrom() != 0) {
			this.hints.remove(queue, page);
		}
		else if (round.next().members() > 0) {
			// a claim that took fewer than it asked for still returns the head of
			// pending: the fresh candidates
			this.hints.put(queue, round.next());
		}
		else {
			this.hints.remove(queue);
		}
		return new CompleteAndClaimResult(results,
				new ClaimResult(round.jobs(), round.limit(), round.retryAfter(), round.expired()));
	}

	private static int grow(int size) {
		return Math.min(MAX_PAGE, size * 2);
	}

	/**
	 * What one {@code claim} call did.
	 *
	 * @param jobs the jobs it claimed
	 * @param skipped how many candidates it skipped (rows that break the schema)
	 * @param next the page its hint names
	 * @param hintFrom where in pending the hint starts
	 * @param limit the flow limit that held it back, or {@code null}
	 * @param retryAfter how long until the rate window has room, or {@code null}
	 * @param paused whether the queue was paused cluster-wide (nothing claimed)
	 * @param expired how many candidates it moved to dead because their deadline had
	 * passed
	 */
	private record ClaimRound(List<ClaimedJob> jobs, int skipped, Page next, long hintFrom,
			ClaimResult.@Nullable Limit limit, @Nullable Duration retryAfter, boolean paused, int expired) {

	}

}
