package io.echomq.flow;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * What the handlers of every JVM did, kept on the server so that the tests read one
 * account, not one per JVM: each start and end is one script, so the server orders them.
 * Per queue (and per queue and lane) it keeps the handlers running now and the most that
 * ever ran at once, the server time of every claim that started a handler (the time the
 * claim script recorded, the one the rate limiter counts), and how many each node started
 * and finished.
 *
 * @author EchoMQ
 */
final class FlowLedger {

	private static final RedisScript<Long> START = new DefaultRedisScript<>("""
			local function up(field)
			  local n = redis.call('HINCRBY', KEYS[1], field, 1)
			  if n > tonumber(redis.call('HGET', KEYS[2], field) or '0') then
			    redis.call('HSET', KEYS[2], field, n)
			  end
			end
			up(ARGV[1])
			if ARGV[2] ~= '' then
			  up(ARGV[1] .. '/' .. ARGV[2])
			end
			redis.call('RPUSH', KEYS[3], ARGV[4])
			return redis.call('HINCRBY', KEYS[4], ARGV[1] .. '/' .. ARGV[3], 1)
			""", Long.class);

	private static final RedisScript<Long> END = new DefaultRedisScript<>("""
			redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
			if ARGV[2] ~= '' then
			  redis.call('HINCRBY', KEYS[1], ARGV[1] .. '/' .. ARGV[2], -1)
			end
			return redis.call('HINCRBY', KEYS[2], ARGV[1], 1)
			""", Long.class);

	private final StringRedisTemplate template;

	private final String prefix;

	FlowLedger(StringRedisTemplate template, String prefix) {
		this.template = template;
		// one hash tag: the scripts touch several keys, which a cluster needs in one slot
		this.prefix = "flow-ledger:{" + prefix + "}:";
	}

	void started(String queue, String lane, String node, long claimedAtMillis) {
		this.template.execute(START, List.of(key("running"), key("peak"), key("starts:" + queue), key("nodes")), queue,
				lane, node, Long.toString(claimedAtMillis));
	}

	void ended(String queue, String lane) {
		this.template.execute(END, List.of(key("running"), key("done")), queue, lane);
	}

	/**
	 * Return the most handlers that ran at once on the queue, or on one of its lanes.
	 * @param field the queue, or {@code queue/lane}
	 * @return the peak, 0 if none ran
	 */
	long peak(String field) {
		Object value = this.template.opsForHash().get(key("peak"), field);
		return (value != null) ? Long.parseLong(value.toString()) : 0;
	}

	long done(String queue) {
		Object value = this.template.opsForHash().get(key("done"), queue);
		return (value != null) ? Long.parseLong(value.toString()) : 0;
	}

	long startedBy(String queue, String node) {
		Object value = this.template.opsForHash().get(key("nodes"), queue + "/" + node);
		return (value != null) ? Long.parseLong(value.toString()) : 0;
	}

	List<Long> starts(String queue) {
		List<String> values = this.template.opsForList().range(key("starts:" + queue), 0, -1);
		List<Long> starts = new ArrayList<>();
		for (String value : (values != null) ? values : List.<String>of()) {
			starts.add(Long.parseLong(value));
		}
		return starts.stream().sorted().toList();
	}

	Map<Object, Object> peaks() {
		return this.template.opsForHash().entries(key("peak"));
	}

	private String key(String name) {
		return this.prefix + name;
	}

}
