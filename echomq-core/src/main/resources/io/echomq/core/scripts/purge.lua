-- purge: dead -> gone. Each candidate still in dead is removed with its row.
--
-- Validate, then write. A candidate whose row breaks the row schema (row.lua), whose state is not
-- 'dead' (deleting it would delete a job that lives elsewhere), or that has no row, is skipped and
-- left exactly as it is, and reported; quarantine.lua moves it out of the way.
--
-- KEYS[1]     emq:{q}:dead     ZSET
-- KEYS[2]     emq:{q}:metrics  HASH, field 'purged'
-- KEYS[3..]   emq:{q}:job:<id> HASH, one row per candidate, in ARGV order
-- ARGV[1..]   candidate ids
-- returns     {purged, {skipped id, reason, ...}}
--- @include "row"
--- @include "keys"

-- validate
if #KEYS ~= 2 + #ARGV then
  return redis.error_reply('EMQARG ' .. #ARGV .. ' candidates need as many row keys, got ' .. (#KEYS - 2))
end
local purge = {}
local skipped = {}
local seen = {}
for i = 1, #ARGV do
  local id = ARGV[i]
  if not seen[id] and redis.call('ZSCORE', KEYS[1], id) then
    seen[id] = true
    local f, problem = valid_row(KEYS[2 + i], 'dead')
    if f then
      purge[#purge + 1] = i
    else
      skipped[#skipped + 1] = id
      skipped[#skipped + 1] = problem
    end
  end
end
local counted = counter_ok(KEYS[2], 'purged')

-- write
for _, i in ipairs(purge) do
  redis.call('ZREM', KEYS[1], ARGV[i])
  redis.call('DEL', KEYS[2 + i])
end
if #purge > 0 and counted then
  redis.call('HINCRBY', KEYS[2], 'purged', #purge)
end
return {#purge, skipped}
