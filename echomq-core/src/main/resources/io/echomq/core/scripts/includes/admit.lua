-- include admit: admit(pending, delayed, row, id, payload, state, run_at, max_attempts, priority, now,
-- extras) writes a new job's row and puts its id in its first location, in the same move: pending
-- (score 0 - priority, never -0, which Redis 6.2 would keep as a score of -0) or, when state is 'schedule', the delayed set scored by run_at. extras is a
-- flat {field, value, ...} list of extra row fields. The caller has checked that the row is free
-- and the location a sorted set (require_zset) before its first write.
local function admit(pending, delayed, row, id, payload, state, run_at, max_attempts, priority, now, extras)
  redis.call('HSET', row, 'state', state, 'attempts', 0, 'max_attempts', max_attempts,
    'payload', payload, 'enqueued_at', now)
  if priority ~= 0 then
    redis.call('HSET', row, 'priority', priority)
  end
  for e = 1, #extras, 2 do
    redis.call('HSET', row, extras[e], extras[e + 1])
  end
  if state == 'pending' then
    redis.call('ZADD', pending, 0 - priority, id)
  else
    redis.call('HSET', row, 'run_at', run_at)
    redis.call('ZADD', delayed, run_at, id)
  end
end
