-- run_now: schedule -> pending at once, whatever its run-at (an operator's "run it now").
--
-- Validate, then write: the id must be in schedule with a row that keeps the row schema (row.lua)
-- and names 'schedule'; otherwise nothing changes and the reply says why.
--
-- KEYS[1]  emq:{q}:schedule ZSET
-- KEYS[2]  emq:{q}:pending  ZSET
-- KEYS[3]  emq:{q}:job:<id> HASH
-- KEYS[4]  emq:{q}:metrics  HASH, field 'promoted'
-- KEYS[5]  emq:{q}:wake     LIST
-- A job of a lane (row field 'lane') is not moved: it is made due now in schedule, and the next
-- promote tick returns it to its lane (this script does not know the lane's keys).
-- ARGV[1]  id
-- [events] optional, last: the stream emq:{q}:events declared after every other key, ARGV ending with
--          EVENTS_TAG, N (events.lua): adds 'promoted' when the job moved to pending, 'scheduled' (field run_at) when
--          a job of a lane was made due now in schedule, in the same move
-- returns  {1, now} applied, or {0, code, detail}: NOT_SCHEDULED when the id is not in schedule,
--          MALFORMED_ROW, WRONG_STATE
--- @include "clock"
--- @include "int"
--- @include "row"
--- @include "keys"
--- @include "wake"
--- @include "pending"
--- @include "events"

-- validate
local events = events_take(KEYS)
local K = {schedule = KEYS[1], pending = KEYS[2], row = KEYS[3], metrics = KEYS[4], wake = KEYS[5]}
local id = ARGV[1]
local f, refused = row_at(K.schedule, K.row, id, 'schedule', 'NOT_SCHEDULED', 'not scheduled')
if not f then
  return refused
end
local lane = redis.call('HGET', K.row, 'lane')
require_zset(K.pending)
local counted = counter_ok(K.metrics, 'promoted')
local wakeable = wake_ok(K.wake)

-- compute
local now = now_ms()

-- write
if lane then
  redis.call('ZADD', K.schedule, now, id)
  redis.call('HSET', K.row, 'run_at', now)
  event_add(events, 'scheduled', id, f[2], 'run_at', now)
  return {1, now}
end
redis.call('ZREM', K.schedule, id)
to_pending(K.pending, K.row, id, int(f[5]) or 0, now)
redis.call('HSET', K.row, 'run_at', now)
if counted then
  redis.call('HINCRBY', K.metrics, 'promoted', 1)
end
event_add(events, 'promoted', id, f[2])
wake(K.wake, wakeable)
return {1, now}
