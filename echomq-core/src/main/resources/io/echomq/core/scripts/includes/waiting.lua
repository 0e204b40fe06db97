-- include waiting: how a script takes a waiting job (pending, schedule, dead, completed) out of the
-- queue for good, with its row (cancel, delete). Both scripts declare KEYS[1] emq:{q}:pending,
-- KEYS[6] the row, KEYS[7] emq:{q}:metrics and, from KEYS[8], optional keys in any order: the
-- unique key the row names (unique.lua), a lane's pending set and the ring (lanes.lua). The functions
-- take the first three named in k ({pending = ..., row = ..., metrics = ...}: the script's key table)
-- and the optional ones as declared, their set (key_set in keys.lua).
--
-- waiting_lane(k, declared, locations, state)
--     for a pending job of a lane, points locations.pending at the lane's pending set; returns the
--     lane (false when the job waits in no lane) and the ring, or nil and the reply
--     {0, 'LANE_KEY', lane} (nothing written) when the caller did not declare the lane's keys
-- waiting_plan(k, declared, id, counter)
--     what the removal needs, read before the first write: the unique key to release and whether the
--     counter can be bumped; or nil and the reply {0, 'UNIQUE_KEY', name} (nothing written) when the
--     row names a unique key the caller did not declare
-- waiting_remove(k, plan, location, id, lane, ring)
--     the writes: the id leaves its location (and a lane left empty leaves the ring), the row is
--     deleted, the unique key released, the counter bumped
--- @include "keys"
--- @include "unique"
--- @include "lanes"

local function waiting_lane(k, declared, locations, state)
  local lane = (state == 'pending') and redis.call('HGET', k.row, 'lane')
  if not lane then
    return false
  end
  local lane_pending, ring = lane_declared(string.sub(k.pending, 1, #k.pending - #'pending'), lane, declared)
  if not lane_pending then
    return nil, {0, 'LANE_KEY', lane}
  end
  locations.pending = lane_pending
  return lane, ring
end

local function waiting_plan(k, declared, id, counter)
  local counted = counter_ok(k.metrics, counter)
  local unique, unique_name = unique_releasable(k.row, id, declared)
  if unique == false then
    return nil, {0, 'UNIQUE_KEY', unique_name}
  end
  return {counter = counter, counted = counted, unique = unique}
end

local function waiting_remove(k, plan, location, id, lane, ring)
  if lane then
    from_lane(location, ring, id, lane)
  else
    redis.call('ZREM', location, id)
  end
  redis.call('DEL', k.row)
  unique_release(plan.unique)
  if plan.counted then
    redis.call('HINCRBY', k.metrics, plan.counter, 1)
  end
end
