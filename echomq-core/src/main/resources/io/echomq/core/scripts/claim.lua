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
-- The keys, arguments and reply claim_lanes.lua shares are described in includes/claim_rows.lua.
-- KEYS[1..4]  emq:{q}:active, emq:{q}:starts, emq:{q}:throttled, emq:{q}:lanes (the ring, only
--             counted: the reply tells the caller whether lanes have work, which claim_lanes.lua serves)
-- KEYS[5]     emq:{q}:pending   ZSET
-- KEYS[6..]   emq:{q}:job:<id>  HASH, one row per candidate, in ARGV order
-- KEYS[last]  emq:{q}:paused    STRING
-- [limits]    optional: emq:{q}:limits declared after the pause flag, ARGV ending with LIMITS_TAG
--             (limits.lua): the limits stored at run time win over ARGV[3..5]
-- ARGV[1..6]  lease ms, most to claim, max-active, rate, period ms, the claiming node's name
-- ARGV[7]     size of the hint when the claim takes its maximum (>= 0)
-- ARGV[8]     size of the hint otherwise: the caller's next page (>= 0)
-- ARGV[9]     offset of the caller's page in pending (>= 0)
-- ARGV[10]    members of that page the caller left out because they are not JOB ids (>= 0)
-- ARGV[11..]  candidate ids
-- [expire]    optional: emq:{q}:dead, :metrics, :outbox, :waiters, :done after the limits (if any), ARGV ending
--             with EXPIRE_TAG (before the events' tag): a candidate past its deadline moves to dead in
--             the same move (expire.lua); without them it is passed over, reason 'expired'
-- [events]    optional, last: the stream emq:{q}:events declared after every other key, ARGV ending
--             with EVENTS_TAG, N (events.lua): adds 'claimed' per job (and 'expired' per job expired),
--             in the same move
-- returns     {now, deadline, {{id, {row fields...}}...}, {skipped id, reason, ...}, limit, reopen,
--             {hint ids...}, hint offset, lanes, 0, expired} (claim_rows.lua): the hint starts at the head of
--             pending when the claim took its maximum, else past the page's members that are still
--             there (not JOB ids, or skipped), which is where the caller's next page starts
--- @include "claim_rows"
--- @include "candidates"
--- @include "events"
--- @include "expire"

-- validate
local c = claim_args()
local full_size = arg_int(7, 0)
local page_size = arg_int(8, 0)
local offset = arg_int(9, 0)
local foreign = arg_int(10, 0)
-- ARGV[1..10] are fixed; the events tag and bound, if any, come after the candidates
local events = events_take(KEYS)
local expiry = expire_take(KEYS)
limits_take(KEYS, c)
local K = {active = KEYS[1], starts = KEYS[2], throttled = KEYS[3], ring = KEYS[4], pending = KEYS[5],
  paused = KEYS[#KEYS]}
if #KEYS ~= #ARGV - 4 then
  return redis.error_reply('EMQARG ' .. (#ARGV - 10) .. ' candidates need as many row keys, got ' .. (#KEYS - 6))
end
local paused, now, max, limit, reopen = claim_open(K, c)
if paused then
  return paused
end
if max == 0 then
  claim_finish(K, c, now, {}, limit == 'MAX_ACTIVE')
  return claim_reply(K, now, now + c.lease, {}, {}, limit, reopen, {}, 0, 0)
end

local rows = key_list(KEYS, 6, #KEYS - 1)
expiry.now = now
local valid, skipped = scan(K.pending, 'pending', 11, #ARGV, rows, false, false, max, false, false, expiry)
local expired = expire_plan(expiry)

-- compute
local deadline = now + c.lease

-- write
expire_write(expiry, events)
local claimed = {}
local starts = {}
local taken = #valid / 4
if taken > 0 then
  -- one ZREM and one ZADD for all the ids: the moves of a batch cost one command each, not one per job
  local ids, scored = {}, {}
  for n = 1, taken do
    local id = ARGV[valid[4 * n - 3]]
    ids[n] = id
    scored[2 * n - 1] = deadline
    scored[2 * n] = id
  end
  redis.call('ZREM', K.pending, unpack(ids))
  redis.call('ZADD', K.active, unpack(scored))
end
for n = 1, #valid, 4 do
  claim_job(valid[n + 1], ARGV[valid[n]], int(valid[n + 2][2]) + 1, c, claimed, starts)
  event_add(events, 'claimed', ARGV[valid[n]], int(valid[n + 2][2]) + 1)
end
claim_finish(K, c, now, starts, limit == 'MAX_ACTIVE' and taken == max)

local hint_from = 0
local size = full_size
if taken < max then
  hint_from = offset + foreign + #skipped / 2
  size = page_size
end
local hint = {}
if size > 0 then
  hint = redis.call('ZRANGE', K.pending, hint_from, hint_from + size - 1)
end
return claim_reply(K, now, deadline, claimed, skipped, limit, reopen, hint, hint_from, 0, expired)
