-- include lanes: the ring of lanes with ready work (KeyType.LANES), a sorted set whose lowest score
-- is the next lane's turn.
--
-- ring_tail(ring)              the score after the ring's highest, 1 when it is empty
-- to_ring(ring, lane)          add a lane at the tail unless it is already in the ring (a lane keeps
--                              its turn while it has work)
-- to_lane(lane_pending, ring, row, id, lane, priority, now)
--                              moves an id into its lane's pending at its priority (the lane's own
--                              location), writes the row's state and ready_at, and puts the lane in
--                              the ring
-- declared_lanes(pendings, first_arg)
--                              the lanes a caller declared: ARGV[first_arg..first_arg+#pendings-1]
--                              names them, pendings (a list) holds their pending keys in the same
--                              order; a map from lane key to pending key. A script that returns a job
--                              to its lane (promote, reap) can move only jobs whose lane was declared,
--                              and reports the others so that the caller declares them and calls again.
--- @include "int"
--- @include "keys"

local function declared_lanes(pendings, first_arg)
  local map = {}
  for i = 1, #pendings do
    map[ARGV[first_arg + i - 1]] = pendings[i]
  end
  return map
end

-- lane_args(keys, more)        the arguments of a script that moves candidates and may return them to
--                              their lanes (promote, reap): ARGV[1] is D, the number of declared lanes,
--                              ARGV[2..1+D] their keys, then the candidate ids; keys (the script's keys
--                              after its fixed ones) the lanes' pending keys, then one row per
--                              candidate (then more keys when more). Returns the declared lanes
--                              (declared_lanes), the first candidate's ARGV index, the rows (a list, in
--                              ARGV order), the number of candidates, the EMQARG message when the keys
--                              do not match, and the keys after the rows (a list)
local function lane_args(keys, more)
  local declared = arg_int(1, 0)
  local first = 2 + declared
  local candidates = #ARGV - first + 1
  local problem = nil
  if #keys < declared + candidates or (not more and #keys ~= declared + candidates) then
    problem = 'EMQARG ' .. candidates .. ' candidates and ' .. declared .. ' lanes need as many keys, got '
      .. #keys
  end
  local rows = key_list(keys, declared + 1, declared + candidates)
  return declared_lanes(key_list(keys, 1, declared), 2), first, rows, candidates, problem,
    key_list(keys, declared + candidates + 1)
end

-- via_schedule(schedule, row, id, now)
--                              how a job of a lane returns to ready from a script that does not know
--                              its lane's keys (retry with no backoff, release, replay): into schedule,
--                              due now, so that the next promote tick moves it to its lane
local function via_schedule(schedule, row, id, now)
  redis.call('ZADD', schedule, now, id)
  redis.call('HSET', row, 'state', 'schedule', 'run_at', now)
end

-- lane_declared(base, lane, declared)
--                              the lane's pending key and the ring key when the caller declared both
--                              (declared: the set of its optional keys; base: the queue's key prefix,
--                              'emq:{q}:'), else nil:
--                              a script that takes a waiting job out of its lane (cancel, delete) then
--                              answers {0, 'LANE_KEY', lane} and the caller calls again with them
local function lane_declared(base, lane, declared)
  local pending_key = base .. 'lane:' .. lane .. ':pending'
  local ring_key = base .. 'lanes'
  if declared[pending_key] and declared[ring_key] then
    return pending_key, ring_key
  end
  return nil
end

-- from_lane(lane_pending, ring, id, lane)
--                              takes an id out of its lane's pending, and the lane out of the ring
--                              when that was its last job
local function from_lane(lane_pending, ring, id, lane)
  redis.call('ZREM', lane_pending, id)
  if redis.call('ZCARD', lane_pending) == 0 then
    redis.call('ZREM', ring, lane)
  end
end

local function ring_tail(ring)
  local last = redis.call('ZRANGE', ring, -1, -1, 'WITHSCORES')
  if last[2] then
    return tonumber(last[2]) + 1
  end
  return 1
end

local function to_ring(ring, lane)
  if not redis.call('ZSCORE', ring, lane) then
    redis.call('ZADD', ring, ring_tail(ring), lane)
  end
end

local function to_lane(lane_pending, ring, row, id, lane, priority, now)
  redis.call('ZADD', lane_pending, 0 - priority, id)
  redis.call('HSET', row, 'state', 'pending', 'ready_at', now)
  to_ring(ring, lane)
end
