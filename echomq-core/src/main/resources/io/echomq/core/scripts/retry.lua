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
-- KEYS[7]  emq:{q}:wake     LIST (a schedule token when the retry comes before every other scheduled
--          job: wake.lua)
-- KEYS[8]  emq:{q}:minutes  HASH, per-minute series (minutes.lua), field '<minute>:failed' (not
--          for a snooze)
-- KEYS[9]  emq:{q}:throttled STRING, set by claim.lua (limits.lua): while it is set, any retry frees
--          a slot a cap held back, so it pushes a wake-up
-- KEYS[10..] emq:{q}:job:<id> HASH, the row of each dead trim candidate, in ARGV order
-- KEYS[last] [unique] emq:{q}:unique:<name> STRING, optional, after every other key: the key the
--          row names, released on dead
-- KEYS[...] [notify] optional, after every other key: emq:{q}:waiters ZSET and emq:{q}:done (a
--          channel): when the job dead-letters (or is retired as cancelled) and is awaited, it leaves
--          waiters and 'dead <id>' (or 'cancelled <id>') is published (notify.lua)
-- KEYS[...] [flow] declared keys after the fixed ones, for a child of a flow that dies (flow.lua)
-- ARGV[1]  id
-- ARGV[2]  token
-- ARGV[3]  error text
-- ARGV[4]  backoff in ms (>= 0)
-- ARGV[5]  '1' to dead-letter now, else '0'
-- ARGV[6]  '1' to snooze (the attempt does not count; ARGV[5] must be '0'), else '0'
-- ARGV[7]  dead retention (retain.lua): most dead ids kept (0: no count bound); absent: no trimming
-- ARGV[8]  dead retention: most age of a dead id in ms (0: no age bound)
-- ARGV[9..] dead trim candidates (at most RETAIN_BATCH), trimmed when the job dead-letters
-- [events]  optional, last: the stream emq:{q}:events declared after every other key, ARGV ending
--           with EVENTS_TAG, N (events.lua): adds 'retried' (field state: schedule or pending) or 'dead',
--           with field error, in the same move, and the event of a parent on the slot it settles (flow.lua)
-- returns  {1, state, at} applied (at = run-at or time of death; for dead also {next dead trim
--          candidates}), or {0, code, detail} stale (a code of fence.lua); [unique] {0, 'UNIQUE_KEY',
--          name} (nothing written) when the job dies and its row names a key not declared; or
--          {0, 'CANCELLED', detail} when a cancel was asked for the job: it is retired as cancelled
--          instead (includes/cancel.lua); [flow] {0, 'FLOW_KEYS', parent id or ''} (nothing written)
--          when a child of a flow dies and its parent's keys are not declared
--- @include "clock"
--- @include "int"
--- @include "fence"
--- @include "keys"
--- @include "wake"
--- @include "pending"
--- @include "minutes"
--- @include "retain"
--- @include "unique"
--- @include "cancel"
--- @include "notify"
--- @include "events"
--- @include "flow"

-- validate
local events = events_take(KEYS)
local K = {active = KEYS[1], schedule = KEYS[2], dead = KEYS[3], pending = KEYS[4], row = KEYS[5],
  metrics = KEYS[6], wake = KEYS[7], minutes = KEYS[8], throttled = KEYS[9]}
local id = ARGV[1]
local backoff = arg_int(4, 0)
if ARGV[5] ~= '0' and ARGV[5] ~= '1' then
  return redis.error_reply("EMQARG ARGV[5] must be '0' or '1', was " .. tostring(ARGV[5]))
end
local snooze = ARGV[6] == '1'
if (ARGV[6] ~= '0' and not snooze) or (snooze and ARGV[5] == '1') then
  return redis.error_reply("EMQARG ARGV[6] must be '0', or '1' with ARGV[5] '0', was " .. tostring(ARGV[6]))
end
local retained = ARGV[7] ~= nil
local keep_count, keep_age = 0, 0
if retained then
  keep_count, keep_age = retain_args(7)
  local fixed = 9 + (#ARGV - 8)
  if (#KEYS < fixed or #KEYS > fixed + 9) or #ARGV - 8 > RETAIN_BATCH then
    return redis.error_reply('EMQARG ' .. (#ARGV - 8) .. ' dead trim candidates (at most ' .. RETAIN_BATCH
      .. ') need as many row keys, got ' .. (#KEYS - 9))
  end
end
local f, stale = fence(K.active, K.row, id, ARGV[2])
if stale then
  return stale
end
local cancelling = cancel_requested(K.row)

-- compute
local now = now_ms()
local used = int(f[2]) - (int(f[4]) or 0)
local state = 'schedule'
if not snooze and (ARGV[5] == '1' or used >= int(f[3])) then
  state = 'dead'
elseif backoff == 0 and not redis.call('HGET', K.row, 'lane') then
  -- a job of a lane waits in schedule, due now, for promote.lua to return it to its lane
  state = 'pending'
end
local counter = (state == 'dead') and 'dead' or (snooze and 'snoozed' or 'retried')
require_zset((state == 'dead') and K.dead or ((state == 'pending') and K.pending or K.schedule))
local counted = counter_ok(K.metrics, counter)
local wakeable = (state == 'pending' or redis.call('EXISTS', K.throttled) == 1) and wake_ok(K.wake)
local head, due_wakeable = nil, false
if state == 'schedule' then
  head = schedule_head(K.schedule)
  due_wakeable = wake_ok(K.wake)
end
-- [unique] a key declared after the fixed keys and the dead trim candidates' rows; released when
-- the job dies or is retired as cancelled
local unique, unique_name = nil, nil
local waiters, channel, awaited = nil, nil, false
if state == 'dead' or cancelling then
  local declared = key_set(KEYS, retained and (10 + (#ARGV - 8)) or 10)
  unique, unique_name = unique_releasable(K.row, id, declared)
  if unique == false then
    return {0, 'UNIQUE_KEY', unique_name}
  end
  waiters, channel = notify_keys(declared, K.row, id)
  awaited = notify_waiting(waiters, id)
end
local flow, flow_reply = nil, nil
if state == 'dead' or cancelling then
  flow, flow_reply = flow_plan(K.row, id, cancelling and 'cancelled' or 'dead', key_set(KEYS, retained and (10 + (#ARGV - 8)) or 10))
  if flow == false then
    return flow_reply
  end
end

-- write
if cancelling then
  local cancelled = retire_cancelled(K.active, K.row, id, K.metrics)
  flow_write(flow, now, events)
  unique_release(unique)
  if awaited then
    notify(waiters, channel, 'cancelled', id)
  end
  event_add(events, 'cancelled', id, f[2])
  return cancelled
end
redis.call('ZREM', K.active, id)
if snooze then
  redis.call('HINCRBY', K.row, 'released', 1)
end
if counted then
  redis.call('HINCRBY', K.metrics, counter, 1)
end
if not snooze then
  count_minute(K.minutes, now, 'failed')
end
event_add(events, (state == 'dead') and 'dead' or 'retried', id, f[2], 'state', state, 'error', ARGV[3])
if state == 'dead' then
  redis.call('ZADD', K.dead, now, id)
  redis.call('HSET', K.row, 'state', 'dead', 'last_error', ARGV[3], 'dead_at', now)
  flow_write(flow, now, events)
  unique_release(unique)
  wake(K.wake, wakeable)
  if awaited then
    notify(waiters, channel, 'dead', id)
  end
  if retained and (keep_count > 0 or keep_age > 0) then
    local _, card = trim(K.dead, 'dead', now, keep_count, keep_age, 9, key_list(KEYS, 10, 9 + (#ARGV - 8)))
    return {1, 'dead', now, retain_next(K.dead, now, keep_count, keep_age, card)}
  end
  return {1, 'dead', now}
end
if state == 'pending' then
  to_pending(K.pending, K.row, id, int(f[5]) or 0, now)
  redis.call('HSET', K.row, 'last_error', ARGV[3])
  wake(K.wake, wakeable)
  return {1, 'pending', now}
end
local run_at = now + backoff
redis.call('ZADD', K.schedule, run_at, id)
redis.call('HSET', K.row, 'state', 'schedule', 'last_error', ARGV[3], 'run_at', run_at)
wake(K.wake, wakeable)
wake_due(K.wake, due_wakeable, head, run_at)
return {1, 'schedule', run_at}
