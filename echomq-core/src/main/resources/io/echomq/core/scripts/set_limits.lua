-- set_limits: store or reset a queue's run-time limits, which win over the configured ones at every
-- node's next claim (includes/limits.lua, limits_take) and, for the listener concurrency, at every
-- container's next beat. The hash holds only what an operator set: a field absent is the configured
-- value (the properties); 'reset' deletes fields, so the configuration applies again.
--
--   set    ARGV[2..] field, value pairs: max_active, rate and period (written together),
--          lane_max_active, lane_rate and lane_period (written together), concurrency, partitions
--          (how many partitions share the queue-wide max_active and rate); each value an integer >= 1. Any other field, a value not an integer >= 1 (a negative rate, a zero
--          period), a rate without its period, or a field named twice is refused
--   reset  ARGV[2..] the limits to delete: max_active, rate (deletes period too), lane_max_active,
--          lane_rate (deletes lane_period too), concurrency; none deletes every field
-- Validate everything, then write: a refused call writes nothing.
--
-- Either mode then pushes wake-up tokens (the wake list's cap, 16), as a resume does, so that idle
-- pollers and pollers held back by a cap claim (and read the concurrency) at once.
--
-- KEYS[1]  emq:{q}:limits  HASH, field to value as above
-- KEYS[2]  emq:{q}:wake    LIST
-- ARGV[1]  'set' or 'reset'
-- ARGV[2..] as above
-- returns  the hash after the write, {field, value, ...}
--- @include "int"
--- @include "keys"
--- @include "wake"

-- validate
local K = {limits = KEYS[1], wake = KEYS[2]}
local mode = ARGV[1]
if mode ~= 'set' and mode ~= 'reset' then
  return redis.error_reply("EMQARG ARGV[1] must be 'set' or 'reset', was " .. tostring(mode)
    .. '; nothing was written')
end
require_type(K.limits, 'hash', 'hash')
local wakeable = wake_ok(K.wake)
local PAIRS = {rate = 'period', period = 'rate', lane_rate = 'lane_period', lane_period = 'lane_rate'}
local KNOWN = {max_active = true, rate = true, period = true, lane_max_active = true, lane_rate = true,
  lane_period = true, concurrency = true, partitions = true}

if mode == 'reset' then
  local fields = {}
  for i = 2, #ARGV do
    local field = ARGV[i]
    if not KNOWN[field] or field == 'period' or field == 'lane_period' or field == 'partitions' then
      return redis.error_reply('EMQARG unknown limit ' .. tostring(field) .. ' to reset (max_active, rate,'
        .. ' lane_max_active, lane_rate, concurrency); nothing was written')
    end
    fields[#fields + 1] = field
    if PAIRS[field] then
      fields[#fields + 1] = PAIRS[field]
    end
  end
  -- write
  if #fields == 0 then
    redis.call('DEL', K.limits)
  else
    redis.call('HDEL', K.limits, unpack(fields))
  end
  wake_all(K.wake, wakeable)
  return redis.call('HGETALL', K.limits)
end

if #ARGV < 3 or #ARGV % 2 == 0 then
  return redis.error_reply('EMQARG set takes field, value pairs, got ' .. (#ARGV - 1)
    .. ' arguments; nothing was written')
end
local values = {}
local pairs_list = {}
for i = 2, #ARGV, 2 do
  local field = ARGV[i]
  if not KNOWN[field] then
    return redis.error_reply('EMQARG unknown limit ' .. tostring(field) .. ' (max_active, rate, period,'
      .. ' lane_max_active, lane_rate, lane_period, concurrency, partitions); nothing was written')
  end
  if values[field] then
    return redis.error_reply('EMQARG limit ' .. field .. ' named twice; nothing was written')
  end
  local value = int(ARGV[i + 1])
  if not value or value < 1 then
    return redis.error_reply('EMQARG limit ' .. field .. ' must be an integer >= 1, was '
      .. tostring(ARGV[i + 1]) .. '; nothing was written')
  end
  values[field] = value
  pairs_list[#pairs_list + 1] = field
  pairs_list[#pairs_list + 1] = value
end
for field, other in pairs(PAIRS) do
  if values[field] and not values[other] then
    return redis.error_reply('EMQARG limit ' .. field .. ' needs ' .. other .. ' in the same call; nothing'
      .. ' was written')
  end
end

-- write
redis.call('HSET', K.limits, unpack(pairs_list))
wake_all(K.wake, wakeable)
return redis.call('HGETALL', K.limits)
