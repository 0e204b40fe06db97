-- reap: active -> pending for each candidate whose lease expired (server time), or -> dead when it
-- had already used its last attempt (attempts - released >= max_attempts). attempts is not touched:
-- the next claim raises it, which fences the worker that lost the lease. A candidate a cancel was
-- asked for (cancel.lua) is retired as cancelled instead (counter 'cancelled').
--
-- Validate, then write. An expired candidate whose row breaks the row schema (row.lua), whose state
-- is not 'active', or that has no row, is skipped and left exactly as it is, and reported; the
-- caller pages past it, and quarantine.lua moves it out of the way.
--
-- KEYS[1]     emq:{q}:active   ZSET
-- KEYS[2]     emq:{q}:pending  ZSET
-- KEYS[3]     emq:{q}:dead     ZSET
-- KEYS[4]     emq:{q}:metrics  HASH, fields 'reaped', 'dead', 'cancelled'
-- KEYS[5]     emq:{q}:wake     LIST
-- KEYS[6..]   emq:{q}:job:<id> HASH, one row per candidate, in ARGV order
-- then        [unique] emq:{q}:unique:<name> STRING, optional: keys the rows name, released on dead
-- ARGV[1..]   candidate ids (the lowest-scored members of active)
-- returns     {now, reaped to pending, reaped to dead, {skipped id, reason, ...}, {id, name, ...},
--             retired as cancelled}: the 5th list [unique] holds the candidates left in active because
--             they would die (or be retired as cancelled) and their row names a unique key that was not
--             declared (unique.lua)
--- @include "clock"
--- @include "int"
--- @include "row"
--- @include "keys"
--- @include "wake"
--- @include "pending"
--- @include "unique"
--- @include "cancel"

-- validate
if #KEYS < 5 + #ARGV then
  return redis.error_reply('EMQARG ' .. #ARGV .. ' candidates need as many row keys, got ' .. (#KEYS - 5))
end
local now = now_ms()
local moves = {}
local skipped = {}
local unique_declared_keys = unique_declared(6 + #ARGV)
local unique_needed = {}
local seen = {}
for i = 1, #ARGV do
  local id = ARGV[i]
  local score = redis.call('ZSCORE', KEYS[1], id)
  if not seen[id] and score and tonumber(score) <= now then
    seen[id] = true
    local f, problem = valid_row(KEYS[5 + i], 'active')
    if f then
      -- compute
      local to_dead = int(f[2]) - (int(f[4]) or 0) >= int(f[3])
      -- [unique] released when the job dies or is retired as cancelled
      local cancelling = cancel_requested(KEYS[5 + i])
      local unique, unique_name = nil, nil
      if to_dead or cancelling then
        unique, unique_name = unique_releasable(KEYS[5 + i], id, unique_declared_keys)
      end
      if unique == false then
        unique_needed[#unique_needed + 1] = id
        unique_needed[#unique_needed + 1] = unique_name
      else
        moves[#moves + 1] = {i, to_dead, int(f[5]) or 0, f[2], unique, cancelling}
      end
    else
      skipped[#skipped + 1] = id
      skipped[#skipped + 1] = problem
    end
  end
end
local reaped = 0
local dead = 0
local cancelled = 0
for _, move in ipairs(moves) do
  if move[6] then
    cancelled = cancelled + 1
  elseif move[2] then
    dead = dead + 1
  else
    reaped = reaped + 1
  end
end
if reaped > 0 then
  require_zset(KEYS[2])
end
if dead > 0 then
  require_zset(KEYS[3])
end
local count_reaped = counter_ok(KEYS[4], 'reaped')
local count_dead = counter_ok(KEYS[4], 'dead')
local count_cancelled = counter_ok(KEYS[4], 'cancelled')
local wakeable = wake_ok(KEYS[5])

-- write
for _, move in ipairs(moves) do
  local id = ARGV[move[1]]
  local row = KEYS[5 + move[1]]
  redis.call('ZREM', KEYS[1], id)
  if move[6] then
    redis.call('DEL', row)
    unique_release(move[5])
  elseif move[2] then
    redis.call('ZADD', KEYS[3], now, id)
    redis.call('HSET', row, 'state', 'dead', 'dead_at', now, 'last_error', 'lease expired on attempt ' .. move[4])
    unique_release(move[5])
  else
    to_pending(KEYS[2], row, id, move[3], now)
  end
end
if reaped > 0 then
  if count_reaped then
    redis.call('HINCRBY', KEYS[4], 'reaped', reaped)
  end
  wake(KEYS[5], wakeable)
end
if dead > 0 and count_dead then
  redis.call('HINCRBY', KEYS[4], 'dead', dead)
end
if cancelled > 0 and count_cancelled then
  redis.call('HINCRBY', KEYS[4], 'cancelled', cancelled)
end
return {now, reaped, dead, skipped, unique_needed, cancelled}
