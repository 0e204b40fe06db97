-- peek_lanes: the head of each named lane's pending set, read only. The claim of a queue with lanes
-- reads the ring (KeyType.LANES) for the lanes whose turn it is, then this for their first ids, so
-- that claim_lanes.lua can declare every lane key and row key it touches.
--
-- KEYS[1..]   emq:{q}:lane:<lane>:pending  ZSET, one per lane
-- ARGV[1]     most ids per lane (>= 1)
-- returns     {{id...}...}, one list per lane in KEYS order
--- @include "int"

local count = arg_int(1, 1)
local heads = {}
for i = 1, #KEYS do
  heads[i] = redis.call('ZRANGE', KEYS[i], 0, count - 1)
end
return heads
