-- claim: pending -> active for each candidate still pending, attempts + 1 (the new fencing token).
--
-- The caller names the candidates (a ZRANGE of pending, or the hint of the previous claim) so that
-- every row key is declared; a candidate another worker took first is skipped.
--
-- KEYS[1]     emq:{q}:pending  ZSET
-- KEYS[2]     emq:{q}:active   ZSET, score lease deadline (server ms)
-- KEYS[3..]   emq:{q}:job:<id> HASH, one row per candidate, in ARGV order
-- ARGV[1]     lease in ms (> 0)
-- ARGV[2]     maximum number of jobs to claim
-- ARGV[3]     number of next candidates to return as a hint
-- ARGV[4..]   candidate ids
-- returns     {now, deadline, {id, {row fields...}}..., {hint ids...}, dropped}
--             where dropped counts pending ids that had no row (removed)

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local deadline = now + tonumber(ARGV[1])
local max = tonumber(ARGV[2])
local claimed = {}
local dropped = 0

for i = 4, #ARGV do
  if #claimed >= max then
    break
  end
  local id = ARGV[i]
  local row = KEYS[i - 1]
  if redis.call('ZSCORE', KEYS[1], id) then
    redis.call('ZREM', KEYS[1], id)
    if redis.call('EXISTS', row) == 1 then
      redis.call('ZADD', KEYS[2], deadline, id)
      redis.call('HINCRBY', row, 'attempts', 1)
      redis.call('HSET', row, 'state', 'active')
      claimed[#claimed + 1] = {id, redis.call('HGETALL', row)}
    else
      dropped = dropped + 1
    end
  end
end

local reply = {now, deadline}
for i = 1, #claimed do
  reply[#reply + 1] = claimed[i]
end
local hint = {}
local size = tonumber(ARGV[3])
if size > 0 then
  hint = redis.call('ZRANGE', KEYS[1], 0, size - 1)
end
reply[#reply + 1] = hint
reply[#reply + 1] = dropped
return reply
