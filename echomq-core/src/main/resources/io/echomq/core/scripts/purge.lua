-- purge: dead -> gone. Each candidate still in dead is removed with its row.
--
-- Validate, then write. A candidate whose row breaks the row schema (row.lua), whose state is not
-- 'dead' (deleting it would delete a job that lives elsewhere), or that has no row, is skipped and
-- left exactly as it is, and reported; quarantine.lua moves it out of the way.
--
-- KEYS[1]     emq:{q}:dead     ZSET
-- KEYS[2]     emq:{q}:metrics  HASH, field 'purged'
-- KEYS[3..]   emq:{q}:job:<id> HASH, one row per candidate, in ARGV order
-- KEYS[last-1], KEYS[last]  [notify] optional, after the rows: emq:{q}:waiters ZSET and emq:{q}:done
--             (a channel): each purged job that is awaited leaves waiters and 'deleted <id>' is
--             published (notify.lua)
-- ARGV[1..]   candidate ids
-- [events]   optional, last: the stream emq:{q}:events declared after every other key, ARGV ending with
--             EVENTS_TAG, N (events.lua): adds 'purged' per job deleted, in the same move
-- returns     {purged, {skipped id, reason, ...}}
--- @include "candidates"
--- @include "keys"
--- @include "notify"
--- @include "events"

-- validate
local events = events_take(KEYS)
local K = {dead = KEYS[1], metrics = KEYS[2]}
local rows_end = 2 + #ARGV
if #KEYS ~= rows_end and #KEYS ~= rows_end + 2 then
  return redis.error_reply('EMQARG ' .. #ARGV .. ' candidates need as many row keys, got ' .. (#KEYS - 2))
end
local rows = key_list(KEYS, 3, rows_end)
local valid, skipped = scan(K.dead, 'dead', 1, #ARGV, rows, false, false, false, false, false)
local purge = {}
for n = 1, #valid, 4 do
  purge[#purge + 1] = valid[n]
  purge[#purge + 1] = valid[n + 2][2]
end
local counted = counter_ok(K.metrics, 'purged')
local waiters, channel = nil, nil
if #ARGV > 0 then
  waiters, channel = notify_keys(key_set(KEYS, rows_end + 1), rows[1], ARGV[1])
end
local awaited = {}
for n = 1, #purge, 2 do
  awaited[purge[n]] = notify_waiting(waiters, ARGV[purge[n]])
end

-- write
for n = 1, #purge, 2 do
  local i = purge[n]
  redis.call('ZREM', K.dead, ARGV[i])
  redis.call('DEL', rows[i])
  if awaited[i] then
    notify(waiters, channel, 'deleted', ARGV[i])
  end
  event_add(events, 'purged', ARGV[i], purge[n + 1])
end
if #purge > 0 and counted then
  redis.call('HINCRBY', K.metrics, 'purged', #purge / 2)
end
return {#purge / 2, skipped}
