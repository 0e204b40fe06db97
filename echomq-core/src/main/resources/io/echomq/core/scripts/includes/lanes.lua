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
-- declared_lanes(first_key, first_arg, n)
--                              the lanes a caller declared: ARGV[first_arg..first_arg+n-1] names them,
--                              KEYS[first_key..] holds their pending keys in the same order; a map
--                              from lane key to pending key. A script that returns a job to its lane
--                              (promote, reap) can move only jobs whose lane was declared, and reports
--                              the others so that the caller declares them and calls again.
--- @include "int"

local function declared_lanes(first_key, first_arg, n)
  local map = {}
  for i = 0, n - 1 do
    map[ARGV[first_arg + i]] = KEYS[first_key + i]
  end
  return map
end

-- lane_args(fixed, more)       the arguments of a script that moves candidates and may return them to
--                              their lanes (promote, reap): ARGV[1] is D, the number of declared lanes,
--                              ARGV[2..1+D] their keys, then the candidate ids; KEYS[fixed+1..fixed+D]
--                              the lanes' pending keys, then one row per candidate (then more keys
--                              when more). Returns the declared lanes (declared_lanes), the first
--                              candidate's ARGV index, the first row's KEYS index, the number of
--                              candidates, and the EMQARG message when the keys do not match
local function lane_args(fixed, more)
  local declared = arg_int(1, 0)
  local first = 2 + declared
  local rows = fixed + 1 + declared
  local candidates = #ARGV - first + 1
  local problem = nil
  if #KEYS < rows + candidates - 1 or (not more and #KEYS ~= rows + candidates - 1) then
    problem = 'EMQARG ' .. candidates .. ' candidates and ' .. declared .. ' lanes need as many keys, got '
      .. (#KEYS - fixed)
  end
  return declared_lanes(fixed + 1, 2, declared), first, rows, candidates, problem
end

-- via_schedule(schedule, row, id, now)
--                              how a job of a lane returns to ready from a script that does not know
--                              its lane's keys (retry with no backoff, release, replay): into schedule,
--                              due now, so that the next promote tick moves it to its lane
local function via_schedule(schedule, row, id, now)
  redis.call('ZADD', schedule, now, id)
  redis.call('HSET', row, 'state', 'schedule', 'run_at', now)
end

-- lane_declared(base, lane, from)
--                              the lane's pending key and the ring key when the caller declared both
--                              among KEYS[from..] (base: the queue's key prefix, 'emq:{q}:'), else nil:
--                              a script that takes a waiting job out of its lane (cancel, delete) then
--                              answers {0, 'LANE_KEY', lane} and the caller calls again with them
local function lane_declared(base, lane, from)
  local pending_key = base .. 'lane:' .. lane .. ':pending'
  local ring_key = base .. 'lanes'
  local has_pending, has_ring = false, false
  for i = from, #KEYS do
    if KEYS[i] == pending_key then
      has_pending = true
    elseif KEYS[i] == ring_key then
      has_ring = true
    end
  end
  if has_pending and has_ring then
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
