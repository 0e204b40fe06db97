-- retry: active -> schedule (run-at = now + backoff), -> pending (backoff 0), or -> dead when the
-- attempts used (attempts - released) reached max_attempts or the caller asks for it (an unreadable
-- payload). The error text is kept on the row.
--
-- A snooze (the handler asked to run again later) is a retry that does not spend the attempt: like
-- a release, it raises 'released' with 'attempts', so the budget is untouched, and it never
-- dead-letters.
--
-- Fenced like complete (fence.lua): a stale caller changes nothing. Validate, then compute the
-- destination from the row's checked numbers, then write; the first write frees memory (ZREM).
--
-- KEYS[1]  emq:{q}:active   ZSET
-- KEYS[2]  emq:{q}:schedule ZSET
-- KEYS[3]  emq:{q}:dead     ZSET, score time of death (ms)
-- KEYS[4]  emq:{q}:pending  ZSET
-- KEYS[5]  emq:{q}:job:<id> HASH
-- KEYS[6]  emq:{q}:metrics  HASH, fields 'retried', 'dead'
-- KEYS[7]  emq:{q}:wake     LIST, pushed when the job goes to pending, or while the throttled marker
--          is set (a cap held claims back and this frees a slot)
-- KEYS[8]  emq:{q}:throttled STRING, set by claim.lua
-- ARGV[1]  id
-- ARGV[2]  token
-- ARGV[3]  error text
-- ARGV[4]  backoff in ms (>= 0)
-- ARGV[5]  '1' to dead-letter now, else '0'
-- ARGV[6]  '1' to snooze (the attempt does not count; ARGV[5] must be '0'), else '0'
-- returns  {1, state, at} applied (at = run-at or time of death), or {0, code, detail} stale (a code
--          of fence.lua)
--- @include "clock"
--- @include "int"
--- @include "fence"
--- @include "keys"
--- @include "wake"
--- @include "pending"

-- validate
local id = ARGV[1]
local backoff = arg_int(4, 0)
if ARGV[5] ~= '0' and ARGV[5] ~= '1' then
  return redis.error_reply("EMQARG ARGV[5] must be '0' or '1', was " .. tostring(ARGV[5]))
end
local snooze = ARGV[6] == '1'
if (ARGV[6] ~= '0' and not snooze) or (snooze and ARGV[5] == '1') then
  return redis.error_reply("EMQARG ARGV[6] must be '0', or '1' with ARGV[5] '0', was " .. tostring(ARGV[6]))
end
local f, stale = fence(KEYS[1], KEYS[5], id, ARGV[2])
if stale then
  return stale
end

-- compute
local now = now_ms()
local used = int(f[2]) - (int(f[4]) or 0)
local state = 'schedule'
if not snooze and (ARGV[5] == '1' or used >= int(f[3])) then
  state = 'dead'
elseif backoff == 0 and not redis.call('HGET', KEYS[5], 'lane') then
  -- a job of a lane waits in schedule, due now, for promote.lua to return it to its lane
  state = 'pending'
end
local counter = (state == 'dead') and 'dead' or (snooze and 'snoozed' or 'retried')
require_zset((state == 'dead') and KEYS[3] or ((state == 'pending') and KEYS[4] or KEYS[2]))
local counted = counter_ok(KEYS[6], counter)
local wakeable = (state == 'pending' or redis.call('EXISTS', KEYS[8]) == 1) and wake_ok(KEYS[7])

-- write
redis.call('ZREM', KEYS[1], id)
if snooze then
  redis.call('HINCRBY', KEYS[5], 'released', 1)
end
if counted then
  redis.call('HINCRBY', KEYS[6], counter, 1)
end
if state == 'dead' then
  redis.call('ZADD', KEYS[3], now, id)
  redis.call('HSET', KEYS[5], 'state', 'dead', 'last_error', ARGV[3], 'dead_at', now)
  wake(KEYS[7], wakeable)
  return {1, 'dead', now}
end
if state == 'pending' then
  to_pending(KEYS[4], KEYS[5], id, int(f[5]) or 0, now)
  redis.call('HSET', KEYS[5], 'last_error', ARGV[3])
  wake(KEYS[7], wakeable)
  return {1, 'pending', now}
end
local run_at = now + backoff
redis.call('ZADD', KEYS[2], run_at, id)
redis.call('HSET', KEYS[5], 'state', 'schedule', 'last_error', ARGV[3], 'run_at', run_at)
wake(KEYS[7], wakeable)
return {1, 'schedule', run_at}
