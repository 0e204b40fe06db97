-- claim: pending -> active for each candidate still pending, attempts + 1 (the new fencing token).
--
-- The caller names the candidates (a page of pending, or the hint of the previous claim) so that
-- every row key is declared; a candidate another worker took first is passed over.
--
-- Validate, then write. A candidate whose row breaks the row schema (row.lua), or whose state is not
-- 'pending', is skipped and left exactly as it is: it is reported in the reply, and the caller pages
-- past it, so whatever sits at the head of pending cannot stall the queue. Moving it out of the way
-- is a transition of its own (quarantine.lua), never a side effect of a claim.
--
-- The queue's flow limits (limits.lua) bound how many may start: at most max-active ids in active
-- and at most 'rate' starts in any window of 'period' ms, on server time. A claim they bound takes
-- fewer (or none) and says which limit and, for the rate, when the window has room again; when a
-- cap bounds it, it sets the throttled marker so that the next completion pushes a wake-up.
--
-- KEYS[1]     emq:{q}:pending   ZSET
-- KEYS[2]     emq:{q}:active    ZSET, score lease deadline (server ms)
-- KEYS[3]     emq:{q}:starts    ZSET, the rate limiter's log: one member per start, score server ms
-- KEYS[4]     emq:{q}:throttled STRING, set (with a TTL) while a cap holds claims back
-- KEYS[5]     emq:{q}:lanes     ZSET, the ring of lanes with ready work (only counted: the reply
--             tells the caller whether lanes have work, which claim_lanes.lua serves)
-- KEYS[6..]   emq:{q}:job:<id>  HASH, one row per candidate, in ARGV order
-- KEYS[last]  emq:{q}:paused    STRING, while the queue is paused cluster-wide (pause.lua)
-- ARGV[1]     lease in ms (>= 1)
-- ARGV[2]     maximum number of jobs to claim (>= 1)
-- ARGV[3]     size of the hint when the claim takes its maximum (>= 0)
-- ARGV[4]     size of the hint otherwise: the caller's next page (>= 0)
-- ARGV[5]     offset of the caller's page in pending (>= 0)
-- ARGV[6]     members of that page the caller left out because they are not JOB ids (>= 0)
-- ARGV[7]     max-active, the most ids in active (>= 0, 0 for no cap)
-- ARGV[8]     rate, the most starts per period (>= 0, 0 for no limit)
-- ARGV[9]     period in ms (>= 1)
-- ARGV[10]    the claiming node's name, written to each claimed row's 'claimed_by' ('' writes none)
-- ARGV[11..]  candidate ids
-- returns     {now, deadline, {{id, {row fields...}}...}, {hint ids...}, hint offset,
--             {skipped id, reason, ...}, limit, reopen, lanes}: the hint starts at the head of pending
--             when the claim took its maximum, else past the page's members that are still there
--             (not JOB ids, or skipped), which is where the caller's next page starts; limit is
--             MAX_ACTIVE or RATE when a flow limit held the claim below ARGV[2] ('' otherwise), and
--             reopen the server time (ms) the rate window has room again (0 when not known), lanes
--             the number of lanes in the ring; while paused, nothing is claimed and the reply is
--             {now, now, {}, {}, 0, {}, '', 0, 0, ms left of the pause (-1: until resumed)}
--- @include "clock"
--- @include "int"
--- @include "row"
--- @include "keys"
--- @include "limits"
--- @include "owner"

-- validate
local lease = arg_int(1, 1)
local max = arg_int(2, 1)
local full_size = arg_int(3, 0)
local page_size = arg_int(4, 0)
local offset = arg_int(5, 0)
local foreign = arg_int(6, 0)
local max_active = arg_int(7, 0)
local rate = arg_int(8, 0)
local period = arg_int(9, 1)
local owner = ARGV[10]
if #KEYS ~= #ARGV - 4 then
  return redis.error_reply('EMQARG ' .. (#ARGV - 10) .. ' candidates need as many row keys, got ' .. (#KEYS - 6))
end
if redis.call('EXISTS', KEYS[#KEYS]) == 1 then
  local now = now_ms()
  return {now, now, {}, {}, 0, {}, '', 0, 0, redis.call('PTTL', KEYS[#KEYS])}
end
require_zset(KEYS[2])
local now = now_ms()
local allowed, limit, reopen = allowance(KEYS[2], KEYS[3], max_active, rate, period, now)
if allowed < max then
  max = allowed
else
  limit = ''
end
if max == 0 then
  if limit == 'MAX_ACTIVE' then
    redis.call('SET', KEYS[4], 1, 'PX', 60000)
  end
  return {now, now + lease, {}, {}, 0, {}, limit, reopen, redis.call('ZCARD', KEYS[5])}
end

local take = {}
local skipped = {}
local seen = {}
for i = 11, #ARGV do
  if #take >= max then
    break
  end
  local id = ARGV[i]
  if not seen[id] and redis.call('ZSCORE', KEYS[1], id) then
    seen[id] = true
    local f, problem = valid_row(KEYS[i - 5], 'pending')
    if f then
      take[#take + 1] = {i, int(f[2]) + 1}
    else
      skipped[#skipped + 1] = id
      skipped[#skipped + 1] = problem
    end
  end
end

-- compute
local deadline = now + lease

-- write
local claimed = {}
local starts = {}
if #take > 0 then
  -- one ZREM and one ZADD for all the ids: the moves of a batch cost one command each, not one per job
  local ids, scored = {}, {}
  for n, t in ipairs(take) do
    ids[n] = ARGV[t[1]]
    scored[2 * n - 1] = deadline
    scored[2 * n] = ARGV[t[1]]
  end
  redis.call('ZREM', KEYS[1], unpack(ids))
  redis.call('ZADD', KEYS[2], unpack(scored))
end
for _, t in ipairs(take) do
  local id = ARGV[t[1]]
  local row = KEYS[t[1] - 5]
  claim_row(row, t[2], owner)
  claimed[#claimed + 1] = {id, redis.call('HGETALL', row)}
  starts[#starts + 1] = id .. ':' .. t[2]
end
if rate > 0 and #starts > 0 then
  log_starts(KEYS[3], period, now, starts)
end
if limit == 'MAX_ACTIVE' and #take == max then
  redis.call('SET', KEYS[4], 1, 'PX', 60000)
end

local hint_from = 0
local size = full_size
if #take < max then
  hint_from = offset + foreign + #skipped / 2
  size = page_size
end
local hint = {}
if size > 0 then
  hint = redis.call('ZRANGE', KEYS[1], hint_from, hint_from + size - 1)
end
return {now, deadline, claimed, hint, hint_from, skipped, limit, reopen, redis.call('ZCARD', KEYS[5])}
