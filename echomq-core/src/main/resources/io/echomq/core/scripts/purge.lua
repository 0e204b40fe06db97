-- purge: dead -> gone. Each candidate still in dead is removed with its row.
--
-- KEYS[1]     emq:{q}:dead     ZSET
-- KEYS[2]     emq:{q}:metrics  HASH, field 'purged'
-- KEYS[3..]   emq:{q}:job:<id> HASH, one row per candidate, in ARGV order
-- ARGV[1..]   candidate ids
-- returns     {purged}

local purged = 0
for i = 1, #ARGV do
  if redis.call('ZREM', KEYS[1], ARGV[i]) == 1 then
    redis.call('DEL', KEYS[2 + i])
    purged = purged + 1
  end
end
if purged > 0 then
  redis.call('HINCRBY', KEYS[2], 'purged', purged)
end
return {purged}
