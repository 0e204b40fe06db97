-- replay: dead -> pending with a fresh attempt budget.
--
-- attempts stays monotonic (it is the fencing token); "attempts reset" means every claim so far
-- stops counting against the budget: released = attempts, max_attempts = budget, so the next
-- claim is attempt 1 again (attempt = attempts - released) and listener caps count afresh.
--
-- KEYS[1]  emq:{q}:dead     ZSET
-- KEYS[2]  emq:{q}:pending  ZSET
-- KEYS[3]  emq:{q}:job:<id> HASH
-- KEYS[4]  emq:{q}:metrics  HASH, field 'replayed'
-- KEYS[5]  emq:{q}:wake     LIST
-- ARGV[1]  id
-- ARGV[2]  budget (>= 1)
-- returns  {1} applied, or {0, code, detail} when the id is not dead

local id = ARGV[1]
if not redis.call('ZSCORE', KEYS[1], id) then
  return {0, 'NOT_DEAD', 'not dead'}
end
local f = redis.call('HMGET', KEYS[3], 'state', 'attempts', 'priority')
if f[1] ~= 'dead' then
  return {0, 'WRONG_STATE', 'state is ' .. tostring(f[1])}
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREM', KEYS[1], id)
redis.call('ZADD', KEYS[2], -tonumber(f[3] or '0'), id)
redis.call('HSET', KEYS[3], 'state', 'pending', 'ready_at', now,
  'released', f[2], 'max_attempts', ARGV[2])
redis.call('HDEL', KEYS[3], 'dead_at')
redis.call('HINCRBY', KEYS[4], 'replayed', 1)
redis.call('LPUSH', KEYS[5], 1)
redis.call('LTRIM', KEYS[5], 0, 15)
return {1}
