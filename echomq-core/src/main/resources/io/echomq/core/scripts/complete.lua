-- complete: active -> done. The row is retired and the completed counter bumped.
--
-- Fenced (fence.lua): applies only if the id is in active, its row is well-formed, its state is
-- 'active' and its attempts equal the caller's token; otherwise nothing changes and a stale reason
-- is returned. Validate, then write; the first write frees memory (ZREM), so a full server still
-- lets jobs complete.
--
-- KEYS[1]  emq:{q}:active   ZSET
-- KEYS[2]  emq:{q}:job:<id> HASH
-- KEYS[3]  emq:{q}:metrics  HASH, field 'completed'
-- KEYS[4]  emq:{q}:wake     LIST, pushed only while the throttled marker is set (a cap held claims
--          back, so the slot this completion frees is worth a wake-up)
-- KEYS[5]  emq:{q}:throttled STRING, set by claim.lua
-- ARGV[1]  id
-- ARGV[2]  token (the attempts value the claim returned)
-- returns  {1} applied, or {0, code, detail} stale: DONE when the row is already retired (a
--          completion whose reply was lost and is sent again finds this), or a code of fence.lua
--- @include "fence"
--- @include "keys"
--- @include "wake"

-- validate
local f, stale = fence(KEYS[1], KEYS[2], ARGV[1], ARGV[2])
if stale then
  if stale[2] == 'NOT_ACTIVE' and redis.call('EXISTS', KEYS[2]) == 0 then
    return {0, 'DONE', 'row retired'}
  end
  return stale
end
local counted = counter_ok(KEYS[3], 'completed')
local wakeable = redis.call('EXISTS', KEYS[5]) == 1 and wake_ok(KEYS[4])

-- write
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('DEL', KEYS[2])
if counted then
  redis.call('HINCRBY', KEYS[3], 'completed', 1)
end
wake(KEYS[4], wakeable)
return {1}
