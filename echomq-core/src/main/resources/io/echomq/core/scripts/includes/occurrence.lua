-- include occurrence: occur(last, pending, delayed, metrics, wake_key, row, name, fire_at, id, payload,
-- max_attempts, now, counted, wakeable) enqueues one occurrence of a recurring schedule: records
-- fire_at as the schedule's last fire time and the occurrence's id (field 'job:<name>', which no
-- schedule name can clash with: ':' is not allowed in one), for the next fire's overlap policy
-- (overlap.lua); writes the occurrence's row into pending (fields
-- 'schedule' and 'fire_at' name it), counts it when the counter is sound and pushes the wake
-- token. The caller has validated every key (require_zset, counter_ok, wake_ok) and the row is free.
--- @include "wake"
--- @include "admit"
local function occur(last, pending, delayed, metrics, wake_key, row, name, fire_at, id, payload, max_attempts,
    now, counted, wakeable)
  redis.call('HSET', last, name, fire_at, 'job:' .. name, id)
  admit(pending, delayed, row, id, payload, 'pending', now, max_attempts, 0, now,
    {'schedule', name, 'fire_at', fire_at})
  if counted then
    redis.call('HINCRBY', metrics, 'enqueued', 1)
  end
  wake(wake_key, wakeable)
end
