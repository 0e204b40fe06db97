-- include lane_controls: an operator's controls of a queue's lanes (lane_control.lua writes them),
-- fields of one queue-level hash (KeyType.LANE_CONTROLS, emq:{q}:lane-controls), so that a claim of
-- L lanes reads them with one HMGET and declares one key, not one per lane:
--   paused:<lane>   '1' while the lane is paused: claims pass it over and take it out of the ring
--                   (its jobs stay in its pending set, their location, with their state unchanged)
--   cap:<lane>      the most jobs an enqueue may leave in the lane's pending set (>= 1)
-- The fields exist only while set: a queue whose lanes nobody controls has no such key.
--
-- controls_ok(key)              raises EMQKEYTYPE (nothing written yet) unless the key is a hash or
--                               absent
-- paused_lanes(key, lanes)      the set of the lanes (a list of names) that are paused, one HMGET
-- lane_cap(key, lane)           the lane's cap, or nil when it has none (a field that is not an
--                               integer >= 1, written by hand, counts as none)
--- @include "int"
--- @include "keys"

local function controls_ok(key)
  require_type(key, 'hash', 'hash')
end

local function paused_lanes(key, lanes)
  local paused = {}
  if #lanes == 0 then
    return paused
  end
  local fields = {}
  for i, lane in ipairs(lanes) do
    fields[i] = 'paused:' .. lane
  end
  local values = redis.call('HMGET', key, unpack(fields))
  for i, lane in ipairs(lanes) do
    if values[i] then
      paused[lane] = true
    end
  end
  return paused
end

local function lane_cap(key, lane)
  local cap = int(redis.call('HGET', key, 'cap:' .. lane))
  if cap and cap >= 1 then
    return cap
  end
  return nil
end
