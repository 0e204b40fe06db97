-- trigger: one occurrence of a recurring schedule enqueued now, on demand, whatever its next fire
-- time (which stays as it is). The last fire time becomes now, in the same move, so a listing
-- shows the occurrence as the schedule's last fire.
--
-- Validate, then write: a schedule removed since the caller read it, or a row already taken,
-- writes nothing.
--
-- KEYS[1]     emq:{q}:schedules      HASH, name -> definition
-- KEYS[2]     emq:{q}:schedule-last  HASH, name -> last fire time (ms)
-- KEYS[3]     emq:{q}:pending        ZSET
-- KEYS[4]     emq:{q}:schedule       ZSET (delayed jobs; not written, admit's other location)
-- KEYS[5]     emq:{q}:metrics        HASH, field 'enqueued'
-- KEYS[6]     emq:{q}:wake           LIST
-- KEYS[7]     emq:{q}:job:<id>       HASH, the occurrence's row
-- ARGV[1]     schedule name
-- ARGV[2]     the definition the caller built the payload from
-- ARGV[3]     the occurrence's job id
-- ARGV[4]     the occurrence's payload
-- ARGV[5]     max_attempts (>= 1)
-- [events]    optional, last: the stream emq:{q}:events declared after every other key, ARGV ending
--             with EVENTS_TAG, N (events.lua): adds 'added' (fields state: pending, schedule: the
--             schedule's name) for the occurrence enqueued, in the same move
-- returns     {now, 'FIRED'} when the occurrence was enqueued, else
--             {0, 'CHANGED'|'DUPLICATE', detail} and nothing was written
--- @include "clock"
--- @include "int"
--- @include "keys"
--- @include "wake"
--- @include "occurrence"
--- @include "events"

-- validate
local events = events_take(KEYS)
local K = {schedules = KEYS[1], schedule_last = KEYS[2], pending = KEYS[3], schedule = KEYS[4],
  metrics = KEYS[5], wake = KEYS[6], row = KEYS[7]}
local name = ARGV[1]
local max_attempts = arg_int(5, 1)
if #KEYS ~= 7 then
  return redis.error_reply('EMQARG trigger takes 7 keys, got ' .. #KEYS .. '; nothing was written')
end
local definition = redis.call('HGET', K.schedules, name)
if definition ~= ARGV[2] then
  return {0, 'CHANGED', definition and 'definition changed' or 'no such schedule'}
end
if redis.call('EXISTS', K.row) == 1 then
  return {0, 'DUPLICATE', ARGV[3]}
end
require_type(K.schedule_last, 'hash', 'hash')
require_zset(K.pending)
local counted = counter_ok(K.metrics, 'enqueued')
local wakeable = wake_ok(K.wake)
local now = now_ms()

-- write
occur(K.schedule_last, K.pending, K.schedule, K.metrics, K.wake, K.row, name, now, ARGV[3], ARGV[4], max_attempts,
  now, counted, wakeable)
event_add(events, 'added', ARGV[3], 0, 'state', 'pending', 'schedule', name)
return {now, 'FIRED'}
