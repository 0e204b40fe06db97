-- complete: active -> done. The row is retired and the completed counter bumped.
--
-- Fenced: applies only if the id is in active, the row's state is 'active' and its attempts equal
-- the caller's token; otherwise nothing changes and a stale reason is returned.
--
-- KEYS[1]  emq:{q}:active   ZSET
-- KEYS[2]  emq:{q}:job:<id> HASH
-- KEYS[3]  emq:{q}:metrics  HASH, field 'completed'
-- ARGV[1]  id
-- ARGV[2]  token (the attempts value the claim returned)
-- returns  {1} applied, or {0, code, detail} stale; code DONE when the row is already retired (a
--          completion whose reply was lost and is sent again finds this)

if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  if redis.call('EXISTS', KEYS[2]) == 0 then
    return {0, 'DONE', 'row retired'}
  end
  return {0, 'NOT_ACTIVE', 'not active'}
end
local f = redis.call('HMGET', KEYS[2], 'state', 'attempts')
if f[1] ~= 'active' then
  return {0, 'WRONG_STATE', 'state is ' .. tostring(f[1])}
end
if f[2] ~= ARGV[2] then
  return {0, 'TOKEN_MISMATCH', 'token ' .. ARGV[2] .. ' does not match attempts ' .. tostring(f[2])}
end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('DEL', KEYS[2])
redis.call('HINCRBY', KEYS[3], 'completed', 1)
return {1}
