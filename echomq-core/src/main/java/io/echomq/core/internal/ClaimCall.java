package io.echomq.core.internal;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.echomq.core.EchoMqNode;
import io.echomq.core.FlowLimits;
import io.echomq.core.JobId;
import org.jspecify.annotations.Nullable;

/**
 * The keys, arguments and reply the two claim scripts share ({@code claim.lua} and
 * {@code claim_lanes.lua}, both built on {@code includes/claim_rows.lua}): each call
 * starts with the same keys and arguments, and each reply has the same shape.
 *
 * @author EchoMQ
 */
final class ClaimCall {

	/** The limit a paused queue's claim reply names. */
	private static final String PAUSED = "PAUSED";

	/** The last argument of a claim that reads the limits stored at run time. */
	private static final String LIMITS_TAG = "=limits";

	/** The last argument of a call that declares the keys expiry moves with. */
	static final String EXPIRE_TAG = "=expire";

	private ClaimCall() {
	}

	/**
	 * The keys every claim starts with: active, starts, throttled and the ring of lanes.
	 * The caller adds its own keys, then the rows, then the pause flag
	 * ({@link QueueKeys#paused()}).
	 */
	static List<String> keys(QueueKeys keys, int more) {
		List<String> list = new ArrayList<>(5 + more);
		list.add(keys.active());
		list.add(keys.starts());
		list.add(keys.throttled());
		list.add(keys.lanes());
		return list;
	}

	/**
	 * The arguments every claim starts with: lease, most to claim, the queue's flow
	 * limits and the claiming node's name.
	 */
	static List<String> args(Duration lease, int max, FlowLimits limits, @Nullable EchoMqNode owner, int more) {
		List<String> args = new ArrayList<>(6 + more);
		args.add(Long.toString(lease.toMillis()));
		args.add(Integer.toString(max));
		addLimits(args, limits.maxActive(), limits.rateLimit());
		args.add((owner != null) ? owner.name() : "");
		return args;
	}

	/**
	 * Add a max-active cap and a rate limit as three arguments (0, 0, 1 for none).
	 */
	static void addLimits(List<String> args, @Nullable Integer maxActive, FlowLimits.@Nullable RateLimit rate) {
		args.add((maxActive != null) ? Integer.toString(maxActive) : "0");
		args.add((rate != null) ? Integer.toString(rate.limit()) : "0");
		args.add((rate != null) ? Long.toString(rate.period().toMillis()) : "1");
	}

	/**
	 * Declare the limits stored at run time ({@link QueueKeys#limits()}) after the pause
	 * flag, and the tag that tells the script to read them (before the expiry keys and
	 * the events, if any).
	 */
	static void declareLimits(QueueKeys queueKeys, List<String> keys, List<String> args) {
		keys.add(queueKeys.limits());
		args.add(LIMITS_TAG);
	}

	/**
	 * Declare the keys a claim (or a promotion) moves a job past its deadline with, after
	 * every other key but the event stream, and the tag that says so at the end of the
	 * arguments ({@code includes/expire.lua}): dead, metrics, outbox, waiters and done.
	 */
	static void declareExpiry(QueueKeys keys, List<String> keyList, List<String> args) {
		keyList.add(keys.dead());
		keyList.add(keys.metrics());
		keyList.add(keys.outbox());
		keyList.add(keys.waiters());
		keyList.add(keys.done());
		args.add(EXPIRE_TAG);
	}

	/**
	 * Read a claim reply.
	 */
	static Reply read(String queue, List<Object> reply) {
		Instant now = Replies.instant(reply.get(0));
		Instant deadline = Replies.instant(reply.get(1));
		List<Object> entries = Replies.list(reply.get(2));
		List<ClaimedJob> jobs = new ArrayList<>(entries.size());
		for (Object value : entries) {
			List<Object> entry = Replies.list(value);
			jobs.add(toClaimedJob(queue, Replies.string(entry.get(0)), Replies.list(entry.get(1)), now, deadline));
		}
		return new Reply(now, jobs, Replies.reasons(reply.get(3)), Replies.string(reply.get(4)),
				Replies.number(reply.get(5)), Replies.list(reply.get(6)), Replies.number(reply.get(7)),
				Replies.number(reply.get(8)), Replies.number(reply.get(9)),
				(reply.size() > 10) ? Replies.number(reply.get(10)) : 0);
	}

	/**
	 * A claim reply.
	 *
	 * @param now the server's time
	 * @param jobs the claimed jobs
	 * @param skipped the candidates passed over, with why
	 * @param limit the limit that held the claim back ({@code ""} for none,
	 * {@code PAUSED} while the queue is paused)
	 * @param reopen the server time (ms) a rate window has room again, or the pause ends
	 * ({@code -1}: paused until resumed); 0 when not known
	 * @param hint the claim's hint ({@code claim.lua} only)
	 * @param hintFrom the hint's offset in pending
	 * @param lanes the number of lanes in the ring
	 * @param stale the lanes named that are no longer in the ring
	 * ({@code claim_lanes.lua} only)
	 * @param expired the candidates moved to dead because their deadline had passed
	 */
	record Reply(Instant now, List<ClaimedJob> jobs, Map<String, String> skipped, String limit, long reopen,
			List<Object> hint, long hintFrom, long lanes, long stale, long expired) {

		boolean paused() {
			return PAUSED.equals(this.limit);
		}

		/**
		 * How long the pause lasts in ms, {@code -1} until resumed.
		 */
		long pauseLeft() {
			return (this.reopen < 0) ? -1 : this.reopen - this.now.toEpochMilli();
		}

	}

	/**
	 * How long a claim the rate limit held back should wait: until the server time the
	 * claim script says the window has room again, once the claim took all the window
	 * allowed. When the script ran out of candidates first it may have taken fewer, so
	 * the window may still have room: no wait then ({@code null}), the caller waits for a
	 * wake-up as on a drained queue.
	 * @param reopen the script's reopen time (server ms), 0 when not known
	 * @param now the script's server time
	 * @param candidatesLeft whether candidates were left when the script stopped taking
	 */
	static @Nullable Duration retryAfter(long reopen, Instant now, boolean candidatesLeft) {
		if (reopen <= 0 || !candidatesLeft) {
			return null;
		}
		return Duration.ofMillis(Math.max(1, reopen - now.toEpochMilli()));
	}

	/**
	 * Read a claimed row straight from its flat {@code HGETALL} reply, in one pass: the
	 * known fields into their components, the rest into {@link ClaimedJob#fields()}.
	 */
	static ClaimedJob toClaimedJob(String queue, String id, List<Object> row, Instant now, Instant deadline) {
		String payload = null;
		String attempts = null;
		String maxAttemptsText = null;
		String enqueuedAtText = null;
		String readyAt = null;
		String released = null;
		Map<String, String> fields = null;
		RowPayload.Parts parts = null;
		for (int i = 0; i + 1 < row.size(); i += 2) {
			String name = Replies.string(row.get(i));
			switch (name) {
				case "payload" -> payload = Replies.string(row.get(i + 1));
				case "attempts" -> attempts = Replies.string(row.get(i + 1));
				case "max_attempts" -> maxAttemptsText = Replies.string(row.get(i + 1));
				case "enqueued_at" -> enqueuedAtText = Replies.string(row.get(i + 1));
				case "ready_at" -> readyAt = Replies.string(row.get(i + 1));
				case "released" -> released = Replies.string(row.get(i + 1));
				case "state", EchoMqNode.CLAIMED_BY_FIELD -> {
				}
				default -> {
					if (RowPayload.partNumber(name) > 0) {
						if (parts == null) {
							parts = new RowPayload.Parts();
						}
						parts.add(name, Replies.string(row.get(i + 1)));
					}
					else {
						if (fields == null) {
							fields = new HashMap<>();
						}
						fields.put(name, Replies.string(row.get(i + 1)));
					}
				}
			}
		}
		if (parts != null && payload != null) {
			parts.add(RowPayload.FIELD, payload);
			payload = parts.join();
		}
		FencingToken token = FencingToken.of(Long.parseLong(attempts));
		long maxAttempts = Long.parseLong(maxAttemptsText);
		Instant enqueuedAt = Instant.ofEpochMilli(Long.parseLong(enqueuedAtText));
		long attempt = token.value() - ((released != null) ? Long.parseLong(released) : 0);
		return new ClaimedJob(queue, JobId.parse(id), token, attempt, maxAttempts, (payload != null) ? payload : "",
				enqueuedAt, (readyAt != null) ? Instant.ofEpochMilli(Long.parseLong(readyAt)) : enqueuedAt, now,
				deadline, (fields != null) ? Map.copyOf(fields) : Map.of());
	}

}
