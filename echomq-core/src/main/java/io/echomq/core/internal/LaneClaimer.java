package io.echomq.core.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import io.echomq.core.EchoMqNode;
import io.echomq.core.FlowLimits;
import io.echomq.core.JobId;
import org.jspecify.annotations.Nullable;

/**
 * The claim of a queue's fair lanes, round-robin across the lanes with ready work.
 * <p>
 * Lane keys are data, so no script can know them in advance, and a script may touch only
 * the keys it is given. The claim therefore reads before it writes, in three calls: the
 * head of the ring of lanes with work ({@code ZRANGE emq:{q}:lanes}), the head of each of
 * those lanes' pending sets ({@code peek_lanes.lua}), then {@code claim_lanes.lua} with
 * every lane key and row key declared. What changed in between (a lane drained and left
 * the ring, a candidate taken by another worker) is checked by the script and passed
 * over; the next round reads the ring again.
 *
 * @author EchoMQ
 */
final class LaneClaimer {

	/** Most lanes one claim call serves. */
	static final int MAX_LANES = 64;

	private static final int MAX_ROUNDS = 4;

	private static final Set<String> QUEUE_LIMITS = Set.of("MAX_ACTIVE", "RATE");

	private final ScriptExecutor executor;

	private final EngineState state;

	private final Script peek = Script.load("peek_lanes");

	private final Script claim = Script.load("claim_lanes");

	LaneClaimer(EngineState state) {
		this.state = state;
		this.executor = state.executor();
	}

	List<Script> scripts() {
		return List.of(this.peek, this.claim);
	}

	/**
	 * Claim up to {@code max} jobs from the lanes.
	 * @return the jobs and the limit that held the claim back; {@code ringEmpty} when the
	 * ring had no lanes
	 */
	Outcome claim(QueueKeys queueKeys, Duration lease, int max, FlowLimits limits, @Nullable EchoMqNode owner) {
		String queue = queueKeys.queue();
		String ring = queueKeys.lanes();
		List<ClaimedJob> claimed = new ArrayList<>();
		ClaimResult.Limit limit = null;
		Duration retryAfter = null;
		boolean ringEmpty = false;
		int expired = 0;
		for (int round = 0; round < MAX_ROUNDS && claimed.size() < max; round++) {
			int want = max - claimed.size();
			int size = Math.min(want, MAX_LANES);
			Set<String> head = this.executor.getTemplate().opsForZSet().range(ring, 0, size - 1);
			List<String> lanes = (head != null) ? new ArrayList<>(head) : List.of();
			if (lanes.isEmpty()) {
				ringEmpty = true;
				break;
			}
			int perLane = Math.min(want, (want + lanes.size() - 1) / lanes.size() + 2);
			List<String> pendingKeys = new ArrayList<>(lanes.size());
			for (String lane : lanes) {
				pendingKeys.add(queueKeys.lane(lane, LaneKeyType.PENDING));
			}
			List<Object> heads = this.executor.execute(this.peek, pendingKeys, List.of(Integer.toString(perLane)));
			List<String> keys = ClaimCall.keys(queueKeys, 3 * lanes.size() + want + 1);
			List<String> args = ClaimCall.args(lease, want, limits, owner, 4 + 2 * lanes.size() + want);
			ClaimCall.addLimits(args, limits.laneMaxActive(), limits.laneRateLimit());
			args.add(Integer.toString(lanes.size()));
			List<String> ids = new ArrayList<>();
			for (int j = 0; j < lanes.size(); j++) {
				String lane = lanes.get(j);
				keys.add(pendingKeys.get(j));
				keys.add(queueKeys.lane(lane, LaneKeyType.HELD));
				keys.add(queueKeys.lane(lane, LaneKeyType.STARTS));
				List<String> laneIds = new ArrayList<>();
				for (Object id : Replies.list(heads.get(j))) {
					String text = Replies.string(id);
					if (JobId.isValid(text)) {
						laneIds.add(text);
					}
				}
				args.add(lane);
				args.add(Integer.toString(laneIds.size()));
				ids.addAll(laneIds);
			}
			String rows = queueKeys.rowPrefix();
			for (String id : ids) {
				keys.add(rows + id);
			}
			keys.add(queueKeys.laneControls());
			keys.add(queueKeys.paused());
			args.addAll(ids);
			ClaimCall.declareLimits(queueKeys, keys, args);
			ClaimCall.declareExpiry(queueKeys, keys, args);
			this.state.declareEvents(queue, keys, args);
			ClaimCall.Reply reply = ClaimCall.read(queue, this.executor.execute(this.claim, keys, args));
			if (reply.paused()) {
				break;
			}
			claimed.addAll(reply.jobs());
			expired += (int) reply.expired();
			String held = reply.limit();
			if (!held.isEmpty()) {
				limit = ClaimResult.Limit.valueOf(held);
				retryAfter = ClaimCall.retryAfter(reply.reopen(), reply.now(),
						ids.size() > reply.jobs().size() + reply.skipped().size() + reply.expired());
				if (QUEUE_LIMITS.contains(held) || lanes.size() < size) {
					break;
				}
			}
			else if (reply.jobs().isEmpty() && reply.stale() == 0 && reply.expired() == 0 && lanes.size() < size) {
				break;
			}
		}
		if (claimed.size() >= max) {
			limit = null;
			retryAfter = null;
		}
		return new Outcome(new ClaimResult(claimed, limit, retryAfter, expired), ringEmpty);
	}

	static boolean isQueueLimit(ClaimResult.@Nullable Limit limit) {
		return limit == ClaimResult.Limit.MAX_ACTIVE || limit == ClaimResult.Limit.RATE;
	}

	record Outcome(ClaimResult result, boolean ringEmpty) {
	}

}
