-- include admit: admit(pending, delayed, row, id, payload, state, run_at, max_attempts, priority, now,
-- extras) writes a new job's row and puts its id in its first location, in the same move: pending
-- (score 0 - priority, never -0, which Redis 6.2 would keep as a score of -0) or, when state is 'schedule', the delayed set scored by run_at. extras is a
-- flat {field, value, ...} list of extra row fields. The caller has checked that the row is free
-- and the location a sorted set (require_zset) before its first write. One HSET writes the whole row, its
-- payload laid out by payload.lua.
--
-- admit_row(row, payload, state, run_at, max_attempts, priority, now, extras) writes the row alone,
-- for a caller that puts many new ids in their location with one ZADD (enqueue.lua).
--- @include "payload"
local function admit_row(row, payload, state, run_at, max_attempts, priority, now, extras)
  local fields = {'state', state, 'attempts', 0, 'max_attempts', max_attempts, 'enqueued_at', now}
  payload_fields(payload, fields)
  if priority ~= 0 then
    fields[#fields + 1] = 'priority'
    fields[#fields + 1] = priority
  end
  for e = 1, #extras do
    fields[#fields + 1] = extras[e]
  end
  if state ~= 'pending' then
    fields[#fields + 1] = 'run_at'
    fields[#fields + 1] = run_at
  end
  redis.call('HSET', row, unpack(fields))
end

local function admit(pending, delayed, row, id, payload, state, run_at, max_attempts, priority, now, extras)
  admit_row(row, payload, state, run_at, max_attempts, priority, now, extras)
  if state == 'pending' then
    redis.call('ZADD', pending, 0 - priority, id)
  else
    redis.call('ZADD', delayed, run_at, id)
  end
end
