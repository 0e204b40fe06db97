-- partitions: record the partition count a running application uses for a queue, as one
-- compare-and-set on the slot of the queue's record (emq:{q}:partitions; the partitions themselves
-- live on other slots, so what they hold is checked by the caller before this runs).
--
--   join   if the record still holds ARGV[2] (what the caller read, '' for none) and no other live
--          holder uses another count: set the record to ARGV[3] (deleted for 1) and hold it for
--          ARGV[5] ms as holder ARGV[4]. Called at start-up and again every third of ARGV[5].
--   leave  drop holder ARGV[4] (ARGV[2] and ARGV[5] ignored).
-- Validate, then write.
--
-- KEYS[1]  emq:{q}:partitions          STRING, the count in use (absent means 1)
-- KEYS[2]  emq:{q}:partitions:holders  ZSET, '<count>:<holder>' scored by expiry (server ms)
-- ARGV[1]  'join' or 'leave'
-- ARGV[2]  the record the caller read, '' when absent
-- ARGV[3]  the caller's count, 1-256
-- ARGV[4]  the holder id
-- ARGV[5]  how long the hold lasts, ms (>= 1)
-- returns  {'ok'}, {'changed', record now ('' when absent)} or {'held', '<count>:<holder>' of a live
--          holder of another count}
--- @include "int"
--- @include "keys"
--- @include "clock"

-- validate
local K = {partitions = KEYS[1], holders = KEYS[2]}
local mode = ARGV[1]
if mode ~= 'join' and mode ~= 'leave' then
  return redis.error_reply("EMQARG ARGV[1] must be 'join' or 'leave', was " .. tostring(mode)
    .. '; nothing was written')
end
local count = arg_int(3, 1)
if count > 256 then
  return redis.error_reply('EMQARG ARGV[3] must be a partition count of 1-256, was ' .. ARGV[3]
    .. '; nothing was written')
end
local holder = ARGV[4]
if not holder or holder == '' then
  return redis.error_reply('EMQARG ARGV[4] must name the holder; nothing was written')
end
require_type(K.partitions, 'string', 'string')
require_zset(K.holders)
local member = count .. ':' .. holder

if mode == 'leave' then
  -- write
  redis.call('ZREM', K.holders, member)
  return {'ok'}
end

local ttl = arg_int(5, 1)
local current = redis.call('GET', K.partitions) or ''
if current ~= ARGV[2] then
  return {'changed', current}
end
local now = now_ms()
local live = redis.call('ZRANGEBYSCORE', K.holders, '(' .. now, '+inf')
for _, other in ipairs(live) do
  local sep = string.find(other, ':', 1, true)
  local other_count = sep and tonumber(string.sub(other, 1, sep - 1)) or nil
  if other_count ~= count and other ~= member then
    return {'held', other}
  end
end

-- write
redis.call('ZREMRANGEBYSCORE', K.holders, '-inf', now)
if count == 1 then
  redis.call('DEL', K.partitions)
else
  redis.call('SET', K.partitions, tostring(count))
end
redis.call('ZADD', K.holders, now + ttl, member)
redis.call('PEXPIRE', K.holders, ttl)
return {'ok'}
