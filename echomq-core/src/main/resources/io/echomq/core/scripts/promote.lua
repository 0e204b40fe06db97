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
-- KEYS[5..]   emq:{q}:job:<id> HASH, one row per candidate, in ARGV order
-- ARGV[1..]   candidate ids (the lowest-scored members of schedule)
-- returns     {now, promoted, {skipped id, reason, ...}}
--- @include "clock"
--- @include "int"
--- @include "row"
--- @include "keys"
--- @include "wake"
--- @include "pending"

-- validate
if #KEYS ~= 4 + #ARGV then
  return redis.error_reply('EMQARG ' .. #ARGV .. ' candidates need as many row keys, got ' .. (#KEYS - 4))
end
local now = now_ms()
local moves = {}
local skipped = {}
local seen = {}
for i = 1, #ARGV do
  local id = ARGV[i]
  local score = redis.call('ZSCORE', KEYS[1], id)
  if not seen[id] and score and tonumber(score) <= now then
    seen[id] = true
    local f, problem = valid_row(KEYS[4 + i], 'schedule')
    if f then
      moves[#moves + 1] = {i, int(f[5]) or 0}
    else
      skipped[#skipped + 1] = id
      skipped[#skipped + 1] = problem
    end
  end
end
if #moves > 0 then
  require_zset(KEYS[2])
end
local counted = counter_ok(KEYS[3], 'promoted')
local wakeable = wake_ok(KEYS[4])

-- write
for _, move in ipairs(moves) do
  local id = ARGV[move[1]]
  redis.call('ZREM', KEYS[1], id)
  to_pending(KEYS[2], KEYS[4 + move[1]], id, move[2], now)
end
if #moves > 0 then
  if counted then
    redis.call('HINCRBY', KEYS[3], 'promoted', #moves)
  end
  wake(KEYS[4], wakeable)
end
return {now, #moves, skipped}
