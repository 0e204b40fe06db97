-- reschedule: writes a schedule's definition and its next fire time in one move. When the stored
-- definition is the same text, nothing is written and the stored next fire time stands (every
-- node declaring the same schedule at start-up leaves it alone); when it differs, the next fire
-- time is the one the caller computed from the new definition, so a changed cron takes effect on
-- every node's next tick.
--
-- A paused schedule stays paused: when the stored record is paused (its text starts with
-- '{"paused":true,', as the caller writes a paused record) the definition is written in its paused
-- form, ARGV[4], and gets no next fire time, so a declared schedule paused by an operator stays
-- paused when the application declares it again at start-up, changed or not.
--
-- KEYS[1]     emq:{q}:schedules      HASH, name -> definition
-- KEYS[2]     emq:{q}:schedule-next  ZSET, name scored by its next fire time (ms)
-- ARGV[1]     schedule name
-- ARGV[2]     definition
-- ARGV[3]     next fire time (ms), or '' when the schedule never fires
-- ARGV[4]     optional: the same definition paused (without it, a paused record is overwritten as
--             not paused: an older caller)
-- returns     {now, 1} when written, {now, 0} when the stored definition was the same
--- @include "clock"
--- @include "int"
--- @include "keys"

-- validate
local K = {schedules = KEYS[1], schedule_next = KEYS[2]}
local next_fire = nil
if ARGV[3] ~= '' then
  next_fire = arg_int(3, 0)
end
if #KEYS ~= 2 or ARGV[1] == '' or ARGV[2] == '' then
  return redis.error_reply('EMQARG reschedule takes 2 keys, a name and a definition; nothing was written')
end
require_type(K.schedules, 'hash', 'hash')
require_zset(K.schedule_next)
local now = now_ms()
local stored = redis.call('HGET', K.schedules, ARGV[1])
if stored == ARGV[2] or (ARGV[4] and stored == ARGV[4]) then
  return {now, 0}
end
local PAUSED = '{"paused":true,'
local paused = ARGV[4] and stored and string.sub(stored, 1, #PAUSED) == PAUSED

-- write
redis.call('HSET', K.schedules, ARGV[1], paused and ARGV[4] or ARGV[2])
if next_fire and not paused then
  redis.call('ZADD', K.schedule_next, next_fire, ARGV[1])
else
  redis.call('ZREM', K.schedule_next, ARGV[1])
end
return {now, 1}
