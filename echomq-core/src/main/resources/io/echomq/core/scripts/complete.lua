-- complete: active -> done. Without retention the row is retired; with retention (ARGV[3] given)
-- the id moves to completed, scored by the time of completion, and the row stays with
-- state 'completed' and 'completed_at', in the same move. The completed counter is bumped.
--
-- Retention (retain.lua) trims completed to its bounds in the same call, at most RETAIN_BATCH ids:
-- the candidates the caller passes (the ids the previous call named as over the bounds), each
-- checked again; the reply names the next candidates.
--
-- Fenced (fence.lua): applies only if the id is in active, its row is well-formed, its state is
-- 'active' and its attempts equal the caller's token; otherwise nothing changes and a stale reason
-- is returned. Validate, then write; the first write frees memory (ZREM), so a full server still
-- lets jobs complete.
--
-- KEYS[1]   emq:{q}:active     ZSET
-- KEYS[2]   emq:{q}:job:<id>   HASH
-- KEYS[3]   emq:{q}:metrics    HASH, field 'completed'
-- KEYS[4]   emq:{q}:minutes    HASH, per-minute series (minutes.lua), field '<minute>:completed'
-- KEYS[5]   emq:{q}:wake       LIST, pushed only while the throttled marker is set (a cap held claims
--           back, so the slot this completion frees is worth a wake-up)
-- KEYS[6]   emq:{q}:throttled  STRING, set by claim.lua (limits.lua)
-- KEYS[7]   emq:{q}:completed  ZSET, score time of completion (ms); only with retention
-- KEYS[8..] emq:{q}:job:<id>   HASH, the row of each trim candidate, in ARGV order
-- KEYS[...] declared keys, after every other key, in any order (unique.lua, result.lua):
--          [unique] emq:{q}:unique:<name> STRING, optional: the key the row names, released here
--          [result] emq:{q}:result:<id> STRING, the result's key: only for a result without retention
--          [notify] emq:{q}:waiters ZSET and emq:{q}:done (a channel): when the id is awaited, it
--          leaves waiters and 'completed <id>' (or 'cancelled <id>') is published (notify.lua)
--          [flow] the keys flow.lua names, for a child of a flow: emq:{q}:outbox, or the local
--          parent's row, emq:{q}:waiting, emq:{q}:pending, emq:{q}:dead, emq:{q}:wake
-- ARGV[1]   id
-- ARGV[2]   token (the attempts value the claim returned)
-- ARGV[3]   retention: most completed ids kept (0: no count bound); absent: retire the row at once
-- ARGV[4]   retention: most age of a completed id in ms (0: no age bound)
-- ARGV[5..] trim candidates (at most RETAIN_BATCH)
-- ARGV[n-2..n] [result] optional, last: RESULT_TAG, the result (the converter's text), its TTL in ms
--          (used without retention; the result is then SET PX in its key, with retention HSET on the
--          row as 'result')
-- [events]  optional, last: the stream emq:{q}:events declared after every other key, ARGV ending
--           with EVENTS_TAG, N (events.lua): adds 'completed' (field size: the result's bytes, 0 for none) or
--           'cancelled', in the same move, and the event of a parent on the slot it settles (flow.lua)
-- returns  {1, {next trim candidates}} applied, or {0, code, detail} stale: DONE when the row is
--          already retired or completed (a completion whose reply was lost and is sent again finds
--          this), or a code of fence.lua; [unique] {0, 'UNIQUE_KEY', name} (nothing written) when
--          the row names a key not declared; or {0, 'CANCELLED', detail} when a cancel was asked for
--          the job: it is retired as cancelled instead (includes/cancel.lua); [flow] {0, 'FLOW_KEYS',
--          parent id or ''} (nothing written) when the row names a parent whose keys are not declared
--- @include "clock"
--- @include "fence"
--- @include "keys"
--- @include "retain"
--- @include "minutes"
--- @include "unique"
--- @include "cancel"
--- @include "wake"
--- @include "result"
--- @include "notify"
--- @include "events"
--- @include "flow"

-- validate
local events = events_take(KEYS)
local K = {active = KEYS[1], row = KEYS[2], metrics = KEYS[3], minutes = KEYS[4], wake = KEYS[5],
  throttled = KEYS[6], completed = KEYS[7]}
local nargs = #ARGV
local result, result_ttl_ms = nil, nil
if nargs >= 5 and ARGV[nargs - 2] == RESULT_TAG then
  result, result_ttl_ms = ARGV[nargs - 1], result_ttl(nargs)
  nargs = nargs - 3
end
local retained = nargs >= 3
local count, age = 0, 0
if retained then
  count, age = retain_args(3)
  if count == 0 and age == 0 then
    error('EMQARG retention needs a count or an age bound, ARGV[3] and ARGV[4] were 0; nothing was written', 0)
  end
  local fixed = 7 + (nargs - 4)
  if #KEYS < fixed or #KEYS > fixed + 10 or nargs - 4 > RETAIN_BATCH then
    error('EMQARG ' .. (nargs - 4) .. ' trim candidates (at most ' .. RETAIN_BATCH
      .. ') need as many row keys, got ' .. (#KEYS - 7) .. '; nothing was written', 0)
  end
  require_zset(K.completed)
end
local f, stale = fence(K.active, K.row, ARGV[1], ARGV[2])
if stale then
  if stale[2] == 'NOT_ACTIVE' then
    if redis.call('EXISTS', K.row) == 0 then
      return {0, 'DONE', 'row retired'}
    end
    if redis.pcall('HGET', K.row, 'state') == 'completed' then
      return {0, 'DONE', 'completed'}
    end
  end
  return stale
end
-- [unique], [result] keys declared after the fixed keys and the trim candidates' rows
local declared = key_set(KEYS, retained and (7 + (nargs - 4) + 1) or 7)
local unique, unique_name = unique_releasable(K.row, ARGV[1], declared)
if unique == false then
  return {0, 'UNIQUE_KEY', unique_name}
end
local result_at = nil
if result and not retained then
  result_at = result_key(declared, K.row, ARGV[1])
end
local awaited = awaited_by(declared, K.row, ARGV[1])
local flow, flow_reply = flow_plan(K.row, ARGV[1], 'completed', declared)
if flow == false then
  return flow_reply
end
if cancel_requested(K.row) then
  local cancelled = retire_cancelled(K.active, K.row, ARGV[1], K.metrics)
  flow_write(flow_recast(flow, 'cancelled'), now_ms(), events)
  unique_release(unique)
  notify_awaited(awaited, 'cancelled', ARGV[1])
  event_add(events, 'cancelled', ARGV[1], f[2])
  return cancelled
end
local counted = counter_ok(K.metrics, 'completed')
local wakeable = redis.call('EXISTS', K.throttled) == 1 and wake_ok(K.wake)

-- compute
local now = now_ms()

-- write
redis.call('ZREM', K.active, ARGV[1])
if counted then
  redis.call('HINCRBY', K.metrics, 'completed', 1)
end
local next_trim = {}
if retained then
  redis.call('ZADD', K.completed, now, ARGV[1])
  if result then
    redis.call('HSET', K.row, 'state', 'completed', 'completed_at', now, 'result', result)
  else
    redis.call('HSET', K.row, 'state', 'completed', 'completed_at', now)
  end
  local _, card = trim(K.completed, 'completed', now, count, age, 5, key_list(KEYS, 8, 7 + (nargs - 4)), nargs)
  next_trim = retain_next(K.completed, now, count, age, card)
else
  redis.call('DEL', K.row)
  if result_at then
    result_store(result_at, result, result_ttl_ms)
  end
end
count_minute(K.minutes, now, 'completed')
flow_write(flow, now, events)
unique_release(unique)
wake(K.wake, wakeable)
notify_awaited(awaited, 'completed', ARGV[1])
event_add(events, 'completed', ARGV[1], f[2], 'size', result and #result or 0)
return {1, next_trim}
