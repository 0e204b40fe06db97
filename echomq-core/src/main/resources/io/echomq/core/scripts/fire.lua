-- fire: one occurrence of a recurring schedule. Compares the schedule's stored definition and next
-- fire time with what the caller planned from, moves the next fire time on, and enqueues the
-- occurrence to pending, in the same move: of N nodes ticking the same due time, exactly one
-- enqueues it; the others find the next fire time moved and write nothing.
--
-- The overlap policy (optional ARGV[9], includes/overlap.lua) looks at the previous occurrence, the
-- job whose id the last-fire hash records, in the same move: SKIP moves the next fire time on and
-- enqueues nothing while it is live (pending, scheduled or active); CANCEL_PREVIOUS retires a
-- pending or scheduled one, or marks an active one for cancel, then enqueues; HOLD_ONE leaves the
-- next fire time where it is (the time is held: the only write is the marker 'held:<name>' in the
-- last-fire hash, read by the caller so that a held time fires however late) and the next tick
-- after the previous one finished fires it. A caller that read another previous id than the one
-- recorded now gets CHANGED.
--
-- Validate, then write. The occurrence's id is derived from (queue, schedule, fire time) by the
-- caller, so a row that already exists means the occurrence was enqueued before (the schedule was
-- put back to a fire time it had already fired): the next fire time still moves on, nothing is
-- enqueued twice.
--
-- KEYS[1]     emq:{q}:schedules      HASH, name -> definition
-- KEYS[2]     emq:{q}:schedule-next  ZSET, name scored by its next fire time (ms)
-- KEYS[3]     emq:{q}:schedule-last  HASH, name -> last fire time (ms)
-- KEYS[4]     emq:{q}:pending        ZSET
-- KEYS[5]     emq:{q}:schedule       ZSET (delayed jobs; not written, admit's other location)
-- KEYS[6]     emq:{q}:metrics        HASH, field 'enqueued'
-- KEYS[7]     emq:{q}:wake           LIST
-- KEYS[8]     emq:{q}:job:<id>       HASH, the occurrence's row
-- ARGV[1]     schedule name
-- ARGV[2]     the definition the caller planned from
-- ARGV[3]     the next fire time the caller read (ms)
-- ARGV[4]     the following fire time to store (ms), or '' when the schedule never fires again
-- ARGV[5]     '1' to enqueue the occurrence of ARGV[3], '0' to move on without (a missed time skipped)
-- ARGV[6]     the occurrence's job id
-- ARGV[7]     the occurrence's payload
-- ARGV[8]     max_attempts (>= 1)
-- KEYS[9]     optional, with ARGV[9] not ALLOW: emq:{q}:active  ZSET (where an active previous
--             occurrence is)
-- KEYS[10]    optional, with ARGV[10] not '': emq:{q}:job:<previous id>  HASH, the previous occurrence's
--             row
-- ARGV[9]     optional: the overlap policy, ALLOW (the default), SKIP, CANCEL_PREVIOUS or HOLD_ONE
-- ARGV[10]    optional, with ARGV[9]: the previous occurrence's id the caller read ('' for none)
-- [events]    optional, last: the stream emq:{q}:events declared after every other key, ARGV ending
--             with EVENTS_TAG, N (events.lua): adds 'added' (fields state: pending, schedule: the
--             schedule's name) for the occurrence enqueued, and 'cancelled' (field state) for a
--             waiting previous occurrence CANCEL_PREVIOUS retired, in the same move
-- returns     {now, 'FIRED'|'SKIPPED'|'DUPLICATE'|'OVERLAP'} when the next fire time moved on
--             (OVERLAP: SKIP found the previous occurrence live), else {0, 'HELD', previous id}
--             (HOLD_ONE: only the marker written), else {0, 'CHANGED'|'MOVED'|'NOT_DUE', detail} and
--             nothing was written
--- @include "clock"
--- @include "int"
--- @include "keys"
--- @include "wake"
--- @include "occurrence"
--- @include "overlap"
--- @include "events"

-- validate
local events = events_take(KEYS)
local K = {schedules = KEYS[1], schedule_next = KEYS[2], schedule_last = KEYS[3], pending = KEYS[4],
  schedule = KEYS[5], metrics = KEYS[6], wake = KEYS[7], row = KEYS[8], active = KEYS[9], previous = KEYS[10]}
local name = ARGV[1]
local expected = arg_int(3, 0)
local following = nil
if ARGV[4] ~= '' then
  following = arg_int(4, expected + 1)
end
if ARGV[5] ~= '1' and ARGV[5] ~= '0' then
  return redis.error_reply('EMQARG ARGV[5] must be 1 or 0, was ' .. tostring(ARGV[5]) .. '; nothing was written')
end
local max_attempts = arg_int(8, 1)
local policy = overlap_policy(ARGV[9] or 'ALLOW')
local previous = ARGV[10] or ''
local key_count = 8
if policy ~= 'ALLOW' then
  key_count = (previous ~= '') and 10 or 9
end
if #KEYS ~= key_count then
  return redis.error_reply('EMQARG fire takes ' .. key_count .. ' keys here, got ' .. #KEYS
    .. '; nothing was written')
end
if K.previous then
  require_id(previous, K.previous, 'job')
end
require_zset(K.schedule_next)
local definition = redis.call('HGET', K.schedules, name)
if definition ~= ARGV[2] then
  return {0, 'CHANGED', definition and 'definition changed' or 'no such schedule'}
end
local stored = redis.call('ZSCORE', K.schedule_next, name)
if not stored or tonumber(stored) ~= expected then
  return {0, 'MOVED', tostring(stored)}
end
local now = now_ms()
if expected > now then
  return {0, 'NOT_DUE', tostring(expected - now) .. 'ms early'}
end
local enqueue = ARGV[5] == '1'
local outcome = enqueue and 'FIRED' or 'SKIPPED'
if enqueue and redis.call('EXISTS', K.row) == 1 then
  enqueue = false
  outcome = 'DUPLICATE'
end
local live = nil
if enqueue and policy ~= 'ALLOW' then
  local recorded = redis.call('HGET', K.schedule_last, 'job:' .. name) or ''
  if recorded ~= previous then
    return {0, 'CHANGED', 'the previous occurrence is ' .. recorded .. ', not ' .. previous}
  end
  if K.previous then
    live = previous_live({pending = K.pending, schedule = K.schedule, active = K.active}, K.previous, previous)
  end
end
if live and policy == 'HOLD_ONE' then
  if redis.call('HGET', K.schedule_last, 'held:' .. name) ~= tostring(expected) then
    redis.call('HSET', K.schedule_last, 'held:' .. name, expected)
  end
  return {0, 'HELD', previous}
end
if live and policy == 'SKIP' then
  enqueue = false
  outcome = 'OVERLAP'
end
local counted, wakeable, previous_attempts
if enqueue then
  require_zset(K.pending)
  counted = counter_ok(K.metrics, 'enqueued')
  wakeable = wake_ok(K.wake)
  if live then
    previous_attempts = int(redis.call('HGET', K.previous, 'attempts')) or 0
  end
end

-- write
if following then
  redis.call('ZADD', K.schedule_next, following, name)
else
  redis.call('ZREM', K.schedule_next, name)
end
redis.call('HDEL', K.schedule_last, 'held:' .. name)
if live and enqueue then
  local cancelled = cancel_previous({pending = K.pending, schedule = K.schedule, active = K.active}, K.previous,
    K.metrics, previous, live, now)
  if cancelled then
    event_add(events, cancelled, previous, previous_attempts, 'state', live)
  end
end
if enqueue then
  occur(K.schedule_last, K.pending, K.schedule, K.metrics, K.wake, K.row, name, expected, ARGV[6], ARGV[7],
    max_attempts, now, counted, wakeable)
  event_add(events, 'added', ARGV[6], 0, 'state', 'pending', 'schedule', name)
end
return {now, outcome}
