-- claim_lanes: lane pending -> active, round-robin across the lanes the caller names, attempts + 1
-- (the new fencing token).
--
-- The lanes are the head of the ring (KeyType.LANES) as the caller read it, each with the head of
-- its pending set (peek_lanes.lua), so that every lane key and row key is declared. The script
-- checks that each lane is still in the ring and each candidate still in its lane's pending with a
-- row that is well-formed, 'pending' and of that lane; anything else is passed over (a lane no
-- longer in the ring is counted as stale, and the caller reads the ring again).
--
-- Round-robin: one job from each lane in ring order, then a second from each, and so on, until the
-- claim has its maximum or the lanes run out. Every lane the claim served or found limited goes to
-- the tail of the ring, in order; a lane left empty leaves the ring. So a lane with 100,000 pending
-- gets one turn per round like a lane with 10.
--
-- A paused lane (lane_controls.lua) is passed over: nothing is claimed from it and it leaves the ring,
-- so that later claims do not read it (an enqueue of it leaves it out; a job promoted or reaped back
-- to it puts it back, and the next claim takes it out again). It is not counted as stale: the
-- caller reads the ring again only when it may hold lanes it has not read.
--
-- Limits (limits.lua), all on server time: the queue's max-active and rate, as claim.lua; per lane
-- at most lane-max-active of its claims still active (the held set: ids claimed from the lane, the
-- ones no longer in active dropped as they are counted), and at most lane-rate starts per
-- lane-period. A lane's own max-active and rate (lane_controls.lua, read in the HMGET of the paused
-- flags) win over these lane defaults for that lane; the held set is kept while a max-active applies
-- to the lane, so that ids claimed before its own max-active was set are not counted. A cap that
-- holds claims back sets the throttled marker (completions push wake-ups).
--
-- The keys, arguments and reply claim.lua shares are described in includes/claim_rows.lua.
-- KEYS[1..4]    emq:{q}:active, emq:{q}:starts, emq:{q}:throttled, emq:{q}:lanes (the ring)
-- KEYS[5..4+3L] per lane: emq:{q}:lane:<lane>:pending (ZSET), :held (SET), :starts (ZSET)
-- KEYS[5+3L..]  emq:{q}:job:<id>   HASH, one row per candidate, in ARGV order
-- KEYS[last-1]  emq:{q}:lane-controls HASH, the lanes' controls (lane_controls.lua)
-- KEYS[last]    emq:{q}:paused     STRING
-- [limits]      optional: emq:{q}:limits declared after the pause flag, ARGV ending with LIMITS_TAG
--               (limits.lua): the limits stored at run time win over ARGV[3..5] and ARGV[7..9]
-- ARGV[1..6]    lease ms, most to claim, max-active, rate, period ms, the claiming node's name
-- ARGV[7..9]    lane max-active, lane rate, lane period ms (0, 0, 1 for none)
-- ARGV[10]      L, the number of lanes
-- ARGV[11..10+2L] per lane: lane key, number of candidates
-- then          the candidate ids, lane after lane
-- [expire]      optional: emq:{q}:dead, :metrics, :outbox, :waiters, :done after the limits (if any), ARGV ending
--               with EXPIRE_TAG (before the events' tag): a candidate past its deadline moves to dead
--               in the same move (expire.lua); without them it is passed over, reason 'expired'
-- [events]      optional, last: the stream emq:{q}:events declared after every other key, ARGV ending
--               with EVENTS_TAG, N (events.lua): adds 'claimed' per job (and 'expired' per job
--               expired), in the same move
-- returns       {now, deadline, {{id, {row fields...}}...}, {skipped id, reason, ...}, limit, reopen,
--               {}, 0, lanes, stale lanes, expired} (claim_rows.lua): limit is MAX_ACTIVE or RATE when a queue
--               limit held the claim below ARGV[2], LANE_MAX_ACTIVE or LANE_RATE when nothing was
--               claimed because every lane with candidates was at its limit, '' otherwise; stale lanes
--               counts the lanes no longer in the ring
--- @include "claim_rows"
--- @include "candidates"
--- @include "lanes"
--- @include "lane_controls"
--- @include "events"
--- @include "expire"

-- validate
local events = events_take(KEYS)
local expiry = expire_take(KEYS)
local c = claim_args()
c.lane_max_active, c.lane_rate, c.lane_period = arg_int(7, 0), arg_int(8, 0), arg_int(9, 1)
limits_take(KEYS, c)
local K = {active = KEYS[1], starts = KEYS[2], throttled = KEYS[3], ring = KEYS[4], controls = KEYS[#KEYS - 1],
  paused = KEYS[#KEYS]}
local lane_max_active, lane_rate, lane_period = c.lane_max_active, c.lane_rate, c.lane_period
local lane_count = arg_int(10, 1)
local lanes = {}
local candidates = 0
for j = 1, lane_count do
  local name = ARGV[9 + 2 * j]
  local n = arg_int(10 + 2 * j, 0)
  lanes[j] = {name = name, n = n, first = candidates, pending = KEYS[2 + 3 * j], held = KEYS[3 + 3 * j],
    starts = KEYS[4 + 3 * j], take = {}, valid = {}}
  candidates = candidates + n
end
local ids_at = 11 + 2 * lane_count
local rows_at = 5 + 3 * lane_count
if #ARGV ~= ids_at - 1 + candidates or #KEYS ~= rows_at + candidates + 1 then
  return redis.error_reply('EMQARG ' .. lane_count .. ' lanes and ' .. candidates .. ' candidates need '
    .. (rows_at + candidates + 1) .. ' keys and ' .. (ids_at - 1 + candidates) .. ' arguments, got '
    .. #KEYS .. ' and ' .. #ARGV)
end
local paused, now, want, limit, reopen = claim_open(K, c)
if paused then
  return paused
end
require_zset(K.ring)
expiry.now = now
controls_ok(K.controls)
local names = {}
for j, lane in ipairs(lanes) do
  names[j] = lane.name
end
local controls = lane_controls(K.controls, names)

local stale = 0
local skipped = {}
local seen = {}
local next_token = {}
local lane_limit = ''
local lane_reopen = 0
for _, lane in ipairs(lanes) do
  lane.live = redis.call('ZSCORE', K.ring, lane.name) ~= false
  if not lane.live then
    stale = stale + 1
  elseif controls[lane.name].paused then
    lane.live = false
    lane.paused = true
  else
    require_zset(lane.pending)
    lane.allowed = math.huge
    lane.prune = {}
    local own = controls[lane.name]
    lane.max_active = own.max_active or lane_max_active
    lane.rate, lane.period = lane_rate, lane_period
    if own.rate then
      lane.rate, lane.period = own.rate, own.period
    end
    if lane.max_active > 0 then
      if key_type(lane.held) ~= 'set' and key_type(lane.held) ~= 'none' then
        error('EMQKEYTYPE ' .. lane.held .. ' is not a set; nothing was written', 0)
      end
      local live = 0
      for _, held in ipairs(redis.call('SMEMBERS', lane.held)) do
        if redis.call('ZSCORE', K.active, held) then
          live = live + 1
        else
          lane.prune[#lane.prune + 1] = held
        end
      end
      lane.allowed = math.max(lane.max_active - live, 0)
      if lane.allowed == 0 then
        lane.limited = 'LANE_MAX_ACTIVE'
      end
    end
    if lane.rate > 0 then
      local room, _, at = allowance(K.active, lane.starts, 0, lane.rate, lane.period, now)
      if room < lane.allowed then
        lane.allowed = room
        if room == 0 then
          lane.limited = 'LANE_RATE'
          if lane_reopen == 0 or at < lane_reopen then
            lane_reopen = at
          end
        end
      end
    end
    local rows = key_list(KEYS, rows_at + lane.first, rows_at + lane.first + lane.n - 1)
    local valid = scan(lane.pending, 'pending', ids_at + lane.first, ids_at + lane.first + lane.n - 1, rows, false,
      false, false, seen, skipped, expiry)
    for n = 1, #valid, 4 do
      local i = valid[n]
      if redis.call('HGET', valid[n + 1], 'lane') ~= lane.name then
        skipped[#skipped + 1] = ARGV[i]
        skipped[#skipped + 1] = "field 'lane' does not name lane " .. lane.name
      else
        lane.valid[#lane.valid + 1] = i
        next_token[i] = int(valid[n + 2][2]) + 1
      end
    end
    if lane.limited and #lane.valid > 0 then
      lane_limit = (lane_limit == '' or lane_limit == lane.limited) and lane.limited or 'LANE_MAX_ACTIVE'
    end
  end
end

-- compute: round-robin, one per lane per round
local total = 0
local round = 1
local more = true
while total < want and more do
  more = false
  for _, lane in ipairs(lanes) do
    if total < want and lane.live and #lane.take < lane.allowed and lane.valid[round] then
      lane.take[#lane.take + 1] = lane.valid[round]
      total = total + 1
      more = true
    end
  end
  round = round + 1
end
local deadline = now + c.lease
local expired = expire_plan(expiry)

-- write
expire_write(expiry, events)
local claimed = {}
local starts = {}
for _, lane in ipairs(lanes) do
  local lane_starts = {}
  for _, i in ipairs(lane.take) do
    local id = ARGV[i]
    local row = KEYS[rows_at + (i - ids_at)]
    redis.call('ZREM', lane.pending, id)
    redis.call('ZADD', K.active, deadline, id)
    local attempts = next_token[i]
    claim_job(row, id, attempts, c, claimed, starts)
    event_add(events, 'claimed', id, attempts)
    lane_starts[#lane_starts + 1] = id .. ':' .. attempts
    if lane.max_active > 0 then
      redis.call('SADD', lane.held, id)
    end
  end
  if lane.paused then
    redis.call('ZREM', K.ring, lane.name)
  end
  if lane.live then
    if #lane.prune > 0 then
      redis.call('SREM', lane.held, unpack(lane.prune))
    end
    if lane.rate > 0 and #lane_starts > 0 then
      log_starts(lane.starts, lane.period, now, lane_starts)
    end
    if redis.call('ZCARD', lane.pending) == 0 then
      redis.call('ZREM', K.ring, lane.name)
    elseif #lane.take > 0 or lane.limited then
      redis.call('ZADD', K.ring, ring_tail(K.ring), lane.name)
    end
  end
end
if limit == '' and total == 0 and lane_limit ~= '' then
  limit = lane_limit
  reopen = (lane_limit == 'LANE_RATE') and lane_reopen or 0
end
claim_finish(K, c, now, starts, (limit == 'MAX_ACTIVE' and total == want) or limit == 'LANE_MAX_ACTIVE')
return claim_reply(K, now, deadline, claimed, skipped, limit, reopen, {}, 0, stale, expired)
