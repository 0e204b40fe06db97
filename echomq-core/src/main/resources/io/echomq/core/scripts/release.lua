-- release: active -> pending on a graceful stop, without spending an attempt.
--
-- attempts stays monotonic (it is the fencing token, so a released worker can never match a later
-- claim); the row's 'released' count goes up instead, and every budget check uses
-- attempts - released, so the release costs the job nothing.
--
-- KEYS[1]  emq:{q}:active   ZSET
-- KEYS[2]  emq:{q}:pending  ZSET
-- KEYS[3]  emq:{q}:job:<id> HASH
-- KEYS[4]  emq:{q}:wake     LIST
-- ARGV[1]  id
-- ARGV[2]  token
-- returns  {1} applied, or {0, code, detail} stale

local id = ARGV[1]
if not redis.call('ZSCORE', KEYS[1], id) then
  return {0, 'NOT_ACTIVE', 'not active'}
end
local f = redis.call('HMGET', KEYS[3], 'state', 'attempts', 'priority')
if f[1] ~= 'active' then
  return {0, 'WRONG_STATE', 'state is ' .. tostring(f[1])}
end
if f[2] ~= ARGV[2] then
  return {0, 'TOKEN_MISMATCH', 'token ' .. ARGV[2] .. ' does not match attempts ' .. tostring(f[2])}
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREM', KEYS[1], id)
redis.call('ZADD', KEYS[2], -tonumber(f[3] or '0'), id)
redis.call('HSET', KEYS[3], 'state', 'pending', 'ready_at', now)
redis.call('HINCRBY', KEYS[3], 'released', 1)
redis.call('LPUSH', KEYS[4], 1)
redis.call('LTRIM', KEYS[4], 0, 15)
return {1}
