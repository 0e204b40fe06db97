-- include lane_controls: an operator's controls of a queue's lanes (lane_control.lua writes them),
-- fields of one queue-level hash (KeyType.LANE_CONTROLS, emq:{q}:lane-controls), so that a claim of
-- L lanes reads them with one HMGET and declares one key, not one per lane:
--   paused:<lane>   '1' while the lane is paused: claims pass it over and take it out of the ring
--                   (its jobs stay in its pending set, their location, with their state unchanged)
--   cap:<lane>      the most jobs an enqueue may leave in the lane's pending set (>= 1)
--   max_active:<lane>, rate:<lane> and period:<lane>
--                   the lane's own max-active and rate (starts per period ms), each >= 1, that win
--                   over the queue's lane max-active and lane rate (configured or stored) for this
--                   lane; a rate is written with its period and counts only with it
-- The fields exist only while set: a queue whose lanes nobody controls has no such key.
--
-- controls_ok(key)              raises EMQKEYTYPE (nothing written yet) unless the key is a hash or
--                               absent
-- lane_controls(key, lanes)     per lane (a list of names) its controls {paused = true or nil,
--                               max_active, rate, period: integers >= 1 or nil}, one HMGET (a
--                               field that is not an integer >= 1, written by hand, counts as none)
-- lane_cap(key, lane)           the lane's cap, or nil when it has none (a field that is not an
--                               integer >= 1, written by hand, counts as none)
--- @include "int"
--- @include "keys"

local function controls_ok(key)
  require_type(key, 'hash', 'hash')
end

local LANE_FIELDS = {'paused:', 'max_active:', 'rate:', 'period:'}

local function positive(value)
  local n = int(value)
  if n and n >= 1 then
    return n
  end
  return nil
end

local function lane_controls(key, lanes)
  local controls = {}
  if #lanes == 0 then
    return controls
  end
  local fields = {}
  for _, lane in ipairs(lanes) do
    for _, prefix in ipairs(LANE_FIELDS) do
      fields[#fields + 1] = prefix .. lane
    end
  end
  local values = redis.call('HMGET', key, unpack(fields))
  for i, lane in ipairs(lanes) do
    local at = (i - 1) * #LANE_FIELDS
    local rate, period = positive(values[at + 3]), positive(values[at + 4])
    controls[lane] = {paused = values[at + 1] and true or nil, max_active = positive(values[at + 2]),
      rate = period and rate or nil, period = rate and period or nil}
  end
  return controls
end

local function lane_cap(key, lane)
  return positive(redis.call('HGET', key, 'cap:' .. lane))
end
