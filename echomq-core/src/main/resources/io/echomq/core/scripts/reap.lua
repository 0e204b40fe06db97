-- reap: active -> pending for each candidate whose lease expired (server time), or -> dead when it
-- had already used its last attempt (attempts - released >= max_attempts). attempts is not touched:
-- the next claim raises it, which fences the worker that lost the lease.
--
-- KEYS[1]     emq:{q}:active   ZSET
-- KEYS[2]     emq:{q}:pending  ZSET
-- KEYS[3]     emq:{q}:dead     ZSET
-- KEYS[4]     emq:{q}:metrics  HASH, fields 'reaped', 'dead'
-- KEYS[5]     emq:{q}:wake     LIST
-- KEYS[6..]   emq:{q}:job:<id> HASH, one row per candidate, in ARGV order
-- ARGV[1..]   candidate ids (the lowest-scored members of active)
-- returns     {now, reaped to pending, reaped to dead}

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local reaped = 0
local dead = 0

for i = 1, #ARGV do
  local id = ARGV[i]
  local row = KEYS[5 + i]
  local score = redis.call('ZSCORE', KEYS[1], id)
  if score and tonumber(score) <= now then
    redis.call('ZREM', KEYS[1], id)
    local f = redis.call('HMGET', row, 'attempts', 'max_attempts', 'priority', 'released')
    if not f[1] then
      -- an id without a row has nothing left to run: dropping it restores the invariant
    elseif tonumber(f[1]) - tonumber(f[4] or '0') >= tonumber(f[2]) then
      redis.call('ZADD', KEYS[3], now, id)
      redis.call('HSET', row, 'state', 'dead', 'dead_at', now,
        'last_error', 'lease expired on attempt ' .. tostring(f[1]))
      dead = dead + 1
    else
      redis.call('ZADD', KEYS[2], -tonumber(f[3] or '0'), id)
      redis.call('HSET', row, 'state', 'pending', 'ready_at', now)
      reaped = reaped + 1
    end
  end
end

if reaped > 0 then
  redis.call('HINCRBY', KEYS[4], 'reaped', reaped)
  redis.call('LPUSH', KEYS[5], 1)
  redis.call('LTRIM', KEYS[5], 0, 15)
end
if dead > 0 then
  redis.call('HINCRBY', KEYS[4], 'dead', dead)
end
return {now, reaped, dead}
