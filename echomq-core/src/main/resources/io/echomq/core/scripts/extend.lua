-- extend: renew the lease of an active job (its active score becomes now + lease).
--
-- Fenced like complete: a worker whose lease was lost cannot extend it any more.
-- The id is removed and re-added rather than updated in place: a server at maxmemory refuses a
-- script whose first write can grow memory (ZADD), but not one that starts by freeing (ZREM), and a
-- renewal must not fail on a full server, or long handlers would lose their leases.
--
-- KEYS[1]  emq:{q}:active   ZSET
-- KEYS[2]  emq:{q}:job:<id> HASH
-- ARGV[1]  id
-- ARGV[2]  token
-- ARGV[3]  lease in ms (> 0)
-- returns  {1, deadline} applied, or {0, code, detail} stale

if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  return {0, 'NOT_ACTIVE', 'not active'}
end
local f = redis.call('HMGET', KEYS[2], 'state', 'attempts')
if f[1] ~= 'active' then
  return {0, 'WRONG_STATE', 'state is ' .. tostring(f[1])}
end
if f[2] ~= ARGV[2] then
  return {0, 'TOKEN_MISMATCH', 'token ' .. ARGV[2] .. ' does not match attempts ' .. tostring(f[2])}
end
local t = redis.call('TIME')
local deadline = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ARGV[3])
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[1], deadline, ARGV[1])
return {1, deadline}
