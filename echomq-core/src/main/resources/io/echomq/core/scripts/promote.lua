-- promote: schedule -> pending for each candidate whose run-at is due (server time).
--
-- Validate, then write. A due candidate whose row breaks the row schema (row.lua), whose state is
-- not 'schedule', or that has no row, is skipped and left exactly as it is, and reported; the caller
-- pages past it, and quarantine.lua moves it out of the way.
--
-- KEYS[1]     emq:{q}:schedule ZSET
-- KEYS[2]     emq:{q}:pending  ZSET
-- KEYS[3]     emq:{q}:metrics  HASH, field 'promoted'
-- KEYS[4]     emq:{q}:wake     LIST
-- KEYS[5]     emq:{q}:lanes    ZSET, the ring of lanes with ready work
-- KEYS[6..5+D]  emq:{q}:lane:<lane>:pending ZSET, one per declared lane
-- KEYS[6+D..] emq:{q}:job:<id> HASH, one row per candidate, in ARGV order
-- ARGV[1]     D, the number of declared lanes (>= 0)
-- ARGV[2..1+D]  the declared lane keys
-- ARGV[2+D..] candidate ids (the lowest-scored members of schedule)
-- returns     {now, promoted, {skipped id, reason, ...}, {id, lane, ...}}: a due job whose row names a
--             lane goes back to that lane's pending (and the lane into the ring) when the lane is
--             declared; otherwise it stays where it is and is listed last, for the caller to declare
--             its lane and call again
--- @include "clock"
--- @include "int"
--- @include "row"
--- @include "keys"
--- @include "wake"
--- @include "pending"
--- @include "lanes"

-- validate
local declared = arg_int(1, 0)
local lanes = declared_lanes(6, 2, declared)
local first = 2 + declared
local rows = 6 + declared
if #KEYS ~= rows + #ARGV - first then
  return redis.error_reply('EMQARG ' .. (#ARGV - first + 1) .. ' candidates and ' .. declared
    .. ' lanes need as many keys, got ' .. (#KEYS - 5))
end
local now = now_ms()
local moves = {}
local skipped = {}
local needs = {}
local seen = {}
for i = first, #ARGV do
  local id = ARGV[i]
  local score = redis.call('ZSCORE', KEYS[1], id)
  if not seen[id] and score and tonumber(score) <= now then
    seen[id] = true
    local row = KEYS[rows + i - first]
    local f, problem = valid_row(row, 'schedule')
    local lane = false
    if f then
      lane, problem = row_lane(row)
      if lane == nil then
        f = nil
      end
    end
    if f and lane and not lanes[lane] then
      needs[#needs + 1] = id
      needs[#needs + 1] = lane
    elseif f then
      if lane then
        require_zset(lanes[lane])
      end
      moves[#moves + 1] = {i, int(f[5]) or 0, lane, row}
    else
      skipped[#skipped + 1] = id
      skipped[#skipped + 1] = problem
    end
  end
end
if #moves > 0 then
  require_zset(KEYS[2])
  require_zset(KEYS[5])
end
local counted = counter_ok(KEYS[3], 'promoted')
local wakeable = wake_ok(KEYS[4])

-- write
for _, move in ipairs(moves) do
  local id = ARGV[move[1]]
  redis.call('ZREM', KEYS[1], id)
  if move[3] then
    to_lane(lanes[move[3]], KEYS[5], move[4], id, move[3], move[2], now)
  else
    to_pending(KEYS[2], move[4], id, move[2], now)
  end
end
if #moves > 0 then
  if counted then
    redis.call('HINCRBY', KEYS[3], 'promoted', #moves)
  end
  wake(KEYS[4], wakeable)
end
return {now, #moves, skipped, needs}
