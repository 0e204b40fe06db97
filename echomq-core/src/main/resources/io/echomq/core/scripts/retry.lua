-- retry: active -> schedule (run-at = now + backoff), -> pending (backoff 0), or -> dead when the
-- attempts used (attempts - released) reached max_attempts or the caller asks for it (an unreadable
-- payload). The error text is kept on the row.
--
-- Fenced like complete: a stale caller changes nothing.
--
-- KEYS[1]  emq:{q}:active   ZSET
-- KEYS[2]  emq:{q}:schedule ZSET
-- KEYS[3]  emq:{q}:dead     ZSET, score time of death (ms)
-- KEYS[4]  emq:{q}:pending  ZSET
-- KEYS[5]  emq:{q}:job:<id> HASH
-- KEYS[6]  emq:{q}:metrics  HASH, fields 'retried', 'dead'
-- KEYS[7]  emq:{q}:wake     LIST
-- ARGV[1]  id
-- ARGV[2]  token
-- ARGV[3]  error text
-- ARGV[4]  backoff in ms (>= 0)
-- ARGV[5]  '1' to dead-letter now, else '0'
-- returns  {1, state, at} applied (at = run-at or time of death), or {0, code, detail} stale

local id = ARGV[1]
if not redis.call('ZSCORE', KEYS[1], id) then
  return {0, 'NOT_ACTIVE', 'not active'}
end
local f = redis.call('HMGET', KEYS[5], 'state', 'attempts', 'max_attempts', 'priority', 'released')
if f[1] ~= 'active' then
  return {0, 'WRONG_STATE', 'state is ' .. tostring(f[1])}
end
if f[2] ~= ARGV[2] then
  return {0, 'TOKEN_MISMATCH', 'token ' .. ARGV[2] .. ' does not match attempts ' .. tostring(f[2])}
end

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREM', KEYS[1], id)

if ARGV[5] == '1' or tonumber(f[2]) - tonumber(f[5] or '0') >= tonumber(f[3]) then
  redis.call('ZADD', KEYS[3], now, id)
  redis.call('HSET', KEYS[5], 'state', 'dead', 'last_error', ARGV[3], 'dead_at', now)
  redis.call('HINCRBY', KEYS[6], 'dead', 1)
  return {1, 'dead', now}
end

redis.call('HINCRBY', KEYS[6], 'retried', 1)
local backoff = tonumber(ARGV[4])
if backoff <= 0 then
  redis.call('ZADD', KEYS[4], -tonumber(f[4] or '0'), id)
  redis.call('HSET', KEYS[5], 'state', 'pending', 'last_error', ARGV[3], 'ready_at', now)
  redis.call('LPUSH', KEYS[7], 1)
  redis.call('LTRIM', KEYS[7], 0, 15)
  return {1, 'pending', now}
end
local run_at = now + backoff
redis.call('ZADD', KEYS[2], run_at, id)
redis.call('HSET', KEYS[5], 'state', 'schedule', 'last_error', ARGV[3], 'run_at', run_at)
return {1, 'schedule', run_at}
