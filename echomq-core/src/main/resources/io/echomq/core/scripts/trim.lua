-- trim: a history location (completed or dead) back within its retention bounds, at most
-- RETAIN_BATCH ids per call (retain.lua). The maintenance scheduler runs it, so that an age bound
-- holds on an idle queue and the dead location keeps its cap whatever path dead-lettered a job.
--
-- Each candidate is checked again: only ids still over the bounds go, each with its row when the row
-- names this location. Validate, then write.
--
-- KEYS[1]     emq:{q}:completed or emq:{q}:dead  ZSET
-- KEYS[2..]   emq:{q}:job:<id>  HASH, the row of each candidate, in ARGV order
-- ARGV[1]     the location: completed or dead
-- ARGV[2]     most ids kept (0: no count bound)
-- ARGV[3]     most age in ms (0: no age bound)
-- ARGV[4..]   candidates (at most RETAIN_BATCH), usually the location's first members
-- returns     {now, trimmed, {next candidates}}
--- @include "clock"
--- @include "keys"
--- @include "retain"

-- validate
local K = {location = KEYS[1]}
local state = ARGV[1]
if state ~= 'completed' and state ~= 'dead' then
  return redis.error_reply('EMQARG ARGV[1] must be completed or dead, was ' .. tostring(state))
end
local count, age = retain_args(2)
if count == 0 and age == 0 then
  return redis.error_reply('EMQARG retention needs a count or an age bound, ARGV[2] and ARGV[3] were 0')
end
if #KEYS ~= 1 + (#ARGV - 3) or #ARGV - 3 > RETAIN_BATCH then
  return redis.error_reply('EMQARG ' .. (#ARGV - 3) .. ' candidates (at most ' .. RETAIN_BATCH
    .. ') need as many row keys, got ' .. (#KEYS - 1))
end
require_zset(K.location)

-- compute
local now = now_ms()

-- write
local trimmed, card = trim(K.location, state, now, count, age, 4, key_list(KEYS, 2))
return {now, trimmed, retain_next(K.location, now, count, age, card)}
