-- include claim_rows: the claim, written once for claim.lua (the queue's own pending set) and
-- claim_lanes.lua (its lanes). Both scripts take the same first keys and arguments and give the
-- same reply. The functions take those keys named, in one table k (the script's own key table):
--
-- KEYS[1]     k.active     emq:{q}:active     ZSET, score lease deadline (server ms)
-- KEYS[2]     k.starts     emq:{q}:starts     ZSET, the queue's rate log: one member per start, score
--                          server ms
-- KEYS[3]     k.throttled  emq:{q}:throttled  STRING, set (with a TTL) while a cap holds claims back
-- KEYS[4]     k.ring       emq:{q}:lanes      ZSET, the ring of lanes with ready work
-- KEYS[last]  k.paused     emq:{q}:paused     STRING, while the queue is paused cluster-wide (pause.lua)
-- ARGV[1]     lease in ms (>= 1)
-- ARGV[2]     most jobs to claim (>= 1)
-- ARGV[3..5]  the queue's max-active, rate, period ms (0, 0, 1 for none; limits.lua)
-- ARGV[6]     the claiming node's name, written to each claimed row's 'claimed_by' ('' writes none)
-- returns     {now, deadline, {{id, {row fields...}}...}, {skipped id, reason, ...}, limit, reopen,
--             {hint ids...}, hint offset, lanes, stale lanes, expired}: limit is MAX_ACTIVE or RATE when a queue
--             limit held the claim below ARGV[2], a script's own limit (LANE_MAX_ACTIVE, LANE_RATE),
--             or '' otherwise; reopen the server time (ms) the rate window has room again (0 when not
--             known); lanes the number of lanes in the ring; expired the candidates moved to dead
--             because their deadline had passed (expire.lua). While paused, nothing is claimed, limit is
--             PAUSED and reopen the server time the pause ends (-1: until resumed):
--             {now, now, {}, {}, 'PAUSED', reopen, {}, 0, 0, 0, 0}
--
-- claim_args()              the common arguments, validated: {lease, max, max_active, rate, period,
--                           owner}
-- claim_open(k, c)          the paused reply when the queue is paused; else nil, the server time, how
--                           many the claim may take (c.max, or fewer when a queue limit holds it
--                           back), the limit ('' unless it holds the claim below c.max) and reopen,
--                           once active is known to be a sorted set
-- claim_job(row, id, attempts, c, claimed, starts)
--                           the one write to a claimed row: one HSET of its state ('active'), its
--                           attempts (the new fencing token) and 'claimed_by'; a claim naming no node
--                           ('') deletes the field rather than leave an earlier claimant's name (the
--                           field is the last claimant: it names the lease holder exactly while the
--                           state is 'active', and who ran the job last otherwise). Appends the
--                           claimed row to claimed and the start to starts
-- claim_finish(k, c, now, starts, throttle)
--                           logs the starts in the queue's rate window and, when throttle, sets the
--                           throttled marker (completions then push wake-ups)
-- claim_reply(k, now, deadline, claimed, skipped, limit, reopen, hint, hint_from, stale, expired)
--- @include "clock"
--- @include "int"
--- @include "keys"
--- @include "limits"

local function claim_args()
  return {lease = arg_int(1, 1), max = arg_int(2, 1), max_active = arg_int(3, 0), rate = arg_int(4, 0),
    period = arg_int(5, 1), owner = ARGV[6]}
end

local function claim_open(k, c)
  if redis.call('EXISTS', k.paused) == 1 then
    local now = now_ms()
    local left = redis.call('PTTL', k.paused)
    return {now, now, {}, {}, 'PAUSED', (left < 0) and -1 or now + left, {}, 0, 0, 0, 0}
  end
  require_zset(k.active)
  local now = now_ms()
  local allowed, limit, reopen = allowance(k.active, k.starts, c.max_active, c.rate, c.period, now)
  if allowed < c.max then
    return nil, now, allowed, limit, reopen
  end
  return nil, now, c.max, '', reopen
end

local function claim_job(row, id, attempts, c, claimed, starts)
  if c.owner == '' then
    redis.call('HSET', row, 'state', 'active', 'attempts', attempts)
    redis.call('HDEL', row, 'claimed_by')
  else
    redis.call('HSET', row, 'state', 'active', 'attempts', attempts, 'claimed_by', c.owner)
  end
  claimed[#claimed + 1] = {id, redis.call('HGETALL', row)}
  starts[#starts + 1] = id .. ':' .. attempts
end

local function claim_finish(k, c, now, starts, throttle)
  if c.rate > 0 and #starts > 0 then
    log_starts(k.starts, c.period, now, starts)
  end
  if throttle then
    redis.call('SET', k.throttled, 1, 'PX', 60000)
  end
end

local function claim_reply(k, now, deadline, claimed, skipped, limit, reopen, hint, hint_from, stale, expired)
  return {now, deadline, claimed, skipped, limit, reopen, hint, hint_from, redis.call('ZCARD', k.ring), stale,
    expired or 0}
end
