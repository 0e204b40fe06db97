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
-- KEYS[4]  [unique] emq:{q}:unique:<name> STRING, optional: the key the row names, released here
-- ARGV[1]  id
-- ARGV[2]  token (the attempts value the claim returned)
-- returns  {1} applied, or {0, code, detail} stale: DONE when the row is already retired (a
--          completion whose reply was lost and is sent again finds this), or a code of fence.lua;
--          [unique] {0, 'UNIQUE_KEY', name} (nothing written) when the row names a key not declared
--- @include "fence"
--- @include "keys"
--- @include "unique"

-- validate
local f, stale = fence(KEYS[1], KEYS[2], ARGV[1], ARGV[2])
if stale then
  if stale[2] == 'NOT_ACTIVE' and redis.call('EXISTS', KEYS[2]) == 0 then
    return {0, 'DONE', 'row retired'}
  end
  return stale
end
local counted = counter_ok(KEYS[3], 'completed')
-- [unique]
local unique, unique_name = unique_releasable(KEYS[2], ARGV[1], unique_declared(4))
if unique == false then
  return {0, 'UNIQUE_KEY', unique_name}
end

-- write
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('DEL', KEYS[2])
if counted then
  redis.call('HINCRBY', KEYS[3], 'completed', 1)
end
unique_release(unique)
return {1}
