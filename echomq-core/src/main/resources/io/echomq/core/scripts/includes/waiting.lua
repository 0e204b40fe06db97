-- include waiting: how a script takes a waiting job (pending, schedule, dead, completed) out of the
-- queue for good, with its row (cancel, delete). Both scripts declare KEYS[1] emq:{q}:pending,
-- KEYS[6] the row, KEYS[7] emq:{q}:metrics and, from KEYS[8], optional keys in any order: the
-- unique key the row names (unique.lua), a lane's pending set and the ring (lanes.lua).
--
-- waiting_lane(locations, state)
--     for a pending job of a lane, points locations.pending at the lane's pending set; returns the
--     lane (false when the job waits in no lane) and the ring, or nil and the reply
--     {0, 'LANE_KEY', lane} (nothing written) when the caller did not declare the lane's keys
-- waiting_plan(id, counter)
--     what the removal needs, read before the first write: the unique key to release and whether the
--     counter can be bumped; or nil and the reply {0, 'UNIQUE_KEY', name} (nothing written) when the
--     row names a unique key the caller did not declare
-- waiting_remove(plan, location, id, lane, ring)
--     the writes: the id leaves its location (and a lane left empty leaves the ring), the row is
--     deleted, the unique key released, the counter bumped
--- @include "keys"
--- @include "unique"
--- @include "lanes"

local function waiting_lane(locations, state)
  local lane = (state == 'pending') and redis.call('HGET', KEYS[6], 'lane')
  if not lane then
    return false
  end
  local lane_pending, ring = lane_declared(string.sub(KEYS[1], 1, #KEYS[1] - #'pending'), lane, 8)
  if not lane_pending then
    return nil, {0, 'LANE_KEY', lane}
  end
  locations.pending = lane_pending
  return lane, ring
end

local function waiting_plan(id, counter)
  local counted = counter_ok(KEYS[7], counter)
  local unique, unique_name = unique_releasable(KEYS[6], id, unique_declared(8))
  if unique == false then
    return nil, {0, 'UNIQUE_KEY', unique_name}
  end
  return {counter = counter, counted = counted, unique = unique}
end

local function waiting_remove(plan, location, id, lane, ring)
  if lane then
    from_lane(location, ring, id, lane)
  else
    redis.call('ZREM', location, id)
  end
  redis.call('DEL', KEYS[6])
  unique_release(plan.unique)
  if plan.counted then
    redis.call('HINCRBY', KEYS[7], plan.counter, 1)
  end
end
