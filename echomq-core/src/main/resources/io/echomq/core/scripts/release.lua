-- release: active -> pending on a graceful stop, without spending an attempt.
--
-- attempts stays monotonic (it is the fencing token, so a released worker can never match a later
-- claim); the row's 'released' count goes up instead, and every budget check uses
-- attempts - released, so the release costs the job nothing. Fenced like complete (fence.lua).
--
-- KEYS[1]  emq:{q}:active   ZSET
-- KEYS[2]  emq:{q}:pending  ZSET
-- KEYS[3]  emq:{q}:job:<id> HASH
-- KEYS[4]  emq:{q}:wake     LIST
-- KEYS[5]  emq:{q}:metrics  HASH, field 'cancelled'
-- KEYS[6]  emq:{q}:schedule ZSET: a job of a lane goes there, due now, and promote.lua returns it to
--          its lane (this script cannot know the lane's keys)
-- KEYS[7..] optional, after every other key, in any order: [unique] emq:{q}:unique:<name> STRING,
--          the key the row names, released when the job is retired as cancelled; [notify]
--          emq:{q}:waiters ZSET and emq:{q}:done (a channel): when a job retired as cancelled is
--          awaited, it leaves waiters and 'cancelled <id>' is published (notify.lua); [flow]
--          emq:{q}:outbox ZSET: a child of a flow retired as cancelled settles its parent through
--          it (flow.lua; FLOW_KEYS, nothing written, when it was not declared)
-- ARGV[1]  id
-- ARGV[2]  token
-- [events]  optional, last: the stream emq:{q}:events declared after every other key, ARGV ending
--           with EVENTS_TAG, N (events.lua): adds 'released' or 'cancelled', in the same move
-- returns  {1, state} applied (state 'pending', or 'schedule' for a job of a lane), or {0, code, detail}
--          stale (a code of fence.lua); or {0, 'CANCELLED', detail} when a cancel was asked for the
--          job: it is retired as cancelled instead (includes/cancel.lua), its unique key released;
--          [unique] {0, 'UNIQUE_KEY', name} (nothing written) when that job's row names a key not
--          declared
--- @include "clock"
--- @include "fence"
--- @include "keys"
--- @include "wake"
--- @include "pending"
--- @include "lanes"
--- @include "cancel"
--- @include "unique"
--- @include "events"
--- @include "notify"
--- @include "flow"

-- validate
local events = events_take(KEYS)
local K = {active = KEYS[1], pending = KEYS[2], row = KEYS[3], wake = KEYS[4], metrics = KEYS[5],
  schedule = KEYS[6]}
local id = ARGV[1]
local f, stale = fence(K.active, K.row, id, ARGV[2])
if stale then
  return stale
end
if cancel_requested(K.row) then
  local declared = key_set(KEYS, 7)
  local unique, unique_name = unique_releasable(K.row, id, declared)
  if unique == false then
    return {0, 'UNIQUE_KEY', unique_name}
  end
  local awaited = awaited_by(declared, K.row, id)
  local flow, flow_reply = flow_plan(K.row, id, 'cancelled', declared, true)
  if flow == false then
    return flow_reply
  end
  local cancelled = retire_cancelled(K.active, K.row, id, K.metrics)
  flow_write(flow, now_ms())
  unique_release(unique)
  event_add(events, 'cancelled', id, f[2])
  notify_awaited(awaited, 'cancelled', id)
  return cancelled
end
local lane = redis.call('HGET', K.row, 'lane')
require_zset(lane and K.schedule or K.pending)
local wakeable = wake_ok(K.wake)
local head = lane and schedule_head(K.schedule)

-- compute
local now = now_ms()
local priority = int(f[5]) or 0

-- write
redis.call('ZREM', K.active, id)
redis.call('HINCRBY', K.row, 'released', 1)
event_add(events, 'released', id, f[2])
if lane then
  via_schedule(K.schedule, K.row, id, now)
  wake_due(K.wake, wakeable, head, now)
  return {1, 'schedule'}
end
to_pending(K.pending, K.row, id, priority, now)
wake(K.wake, wakeable)
return {1, 'pending'}
