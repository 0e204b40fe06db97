-- schedule_pause: pauses or resumes one recurring schedule, on its record, in one move. A pause
-- writes the record in its paused form (its text starts with '{"paused":true,') and takes the
-- schedule's next fire time away, so no node's tick finds it due (and an older node's tick neither);
-- a resume writes the record back and stores the next fire time the caller computed after the
-- server's current time, so the times that passed while paused never fire.
--
-- Validate, then write: an unknown schedule, or a record changed since the caller read it, writes
-- nothing.
--
-- KEYS[1]     emq:{q}:schedules      HASH, name -> record
-- KEYS[2]     emq:{q}:schedule-next  ZSET, name scored by its next fire time (ms)
-- KEYS[3]     emq:{q}:schedule-last  HASH, field held:<name> (a held fire time, dropped by a pause)
-- ARGV[1]     schedule name
-- ARGV[2]     the record the caller read
-- ARGV[3]     the record to write: the same definition, paused or not
-- ARGV[4]     '1' to pause, '0' to resume
-- ARGV[5]     on resume: the next fire time (ms), or '' when the schedule never fires again
-- returns     {now, 1} when written, {now, 0} when the record already was ARGV[3], else
--             {0, 'NO_SCHEDULE'|'CHANGED', detail} and nothing was written
--- @include "clock"
--- @include "int"
--- @include "keys"

-- validate
local K = {schedules = KEYS[1], schedule_next = KEYS[2], schedule_last = KEYS[3]}
if #KEYS ~= 3 or ARGV[1] == '' or ARGV[3] == '' then
  return redis.error_reply('EMQARG schedule_pause takes 3 keys, a name and two records; nothing was written')
end
if ARGV[4] ~= '1' and ARGV[4] ~= '0' then
  return redis.error_reply('EMQARG ARGV[4] must be 1 or 0, was ' .. tostring(ARGV[4]) .. '; nothing was written')
end
local pause = ARGV[4] == '1'
local next_fire = nil
if not pause and ARGV[5] and ARGV[5] ~= '' then
  next_fire = arg_int(5, 0)
end
require_type(K.schedules, 'hash', 'hash')
require_zset(K.schedule_next)
require_type(K.schedule_last, 'hash', 'hash')
local now = now_ms()
local stored = redis.call('HGET', K.schedules, ARGV[1])
if not stored then
  return {0, 'NO_SCHEDULE', ARGV[1]}
end
if stored == ARGV[3] then
  return {now, 0}
end
if stored ~= ARGV[2] then
  return {0, 'CHANGED', 'the record changed since it was read'}
end

-- write
redis.call('HSET', K.schedules, ARGV[1], ARGV[3])
if pause then
  redis.call('ZREM', K.schedule_next, ARGV[1])
  redis.call('HDEL', K.schedule_last, 'held:' .. ARGV[1])
elseif next_fire then
  redis.call('ZADD', K.schedule_next, next_fire, ARGV[1])
end
return {now, 1}
