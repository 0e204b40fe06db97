-- lane_sizes: how many jobs each named lane has pending, read only (for stats and meters).
--
-- KEYS[1..]   emq:{q}:lane:<lane>:pending  ZSET, one per lane
-- ARGV[]      none
-- returns     {size...}, in KEYS order
local sizes = {}
for i = 1, #KEYS do
  sizes[i] = redis.call('ZCARD', KEYS[i])
end
return sizes
