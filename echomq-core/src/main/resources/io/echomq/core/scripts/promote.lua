-- promote: schedule -> pending for each candidate whose run-at is due (server time).
--
-- KEYS[1]     emq:{q}:schedule ZSET
-- KEYS[2]     emq:{q}:pending  ZSET
-- KEYS[3]     emq:{q}:metrics  HASH, field 'promoted'
-- KEYS[4]     emq:{q}:wake     LIST
-- KEYS[5..]   emq:{q}:job:<id> HASH, one row per candidate, in ARGV order
-- ARGV[1..]   candidate ids (the lowest-scored members of schedule)
-- returns     {now, promoted}

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local promoted = 0

for i = 1, #ARGV do
  local id = ARGV[i]
  local row = KEYS[4 + i]
  local score = redis.call('ZSCORE', KEYS[1], id)
  if score and tonumber(score) <= now then
    redis.call('ZREM', KEYS[1], id)
    local f = redis.call('HMGET', row, 'state', 'priority')
    if f[1] then
      redis.call('ZADD', KEYS[2], -tonumber(f[2] or '0'), id)
      redis.call('HSET', row, 'state', 'pending', 'ready_at', now)
      promoted = promoted + 1
    end
  end
end

if promoted > 0 then
  redis.call('HINCRBY', KEYS[3], 'promoted', promoted)
  redis.call('LPUSH', KEYS[4], 1)
  redis.call('LTRIM', KEYS[4], 0, 15)
end
return {now, promoted}
