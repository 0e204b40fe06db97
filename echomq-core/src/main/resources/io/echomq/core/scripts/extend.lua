-- extend: renew the lease of an active job (its active score becomes now + lease).
--
-- Fenced like complete (fence.lua): a worker whose lease was lost cannot extend it any more.
-- The id is removed and re-added rather than updated in place: a server at maxmemory refuses a
-- script whose first write can grow memory (ZADD), but not one that starts by freeing (ZREM), and a
-- renewal must not fail on a full server, or long handlers would lose their leases.
--
-- KEYS[1]  emq:{q}:active   ZSET
-- KEYS[2]  emq:{q}:job:<id> HASH
-- ARGV[1]  id
-- ARGV[2]  token
-- ARGV[3]  lease in ms (>= 1)
-- returns  {1, deadline} applied, or {0, code, detail} stale (a code of fence.lua); or
--          {0, 'CANCEL_REQUESTED', detail} when a cancel was asked for the job (cancel.lua): the lease
--          is not renewed, and the worker stops the handler
--- @include "clock"
--- @include "int"
--- @include "fence"
--- @include "cancel"

-- validate
local K = {active = KEYS[1], row = KEYS[2]}
local lease = arg_int(3, 1)
local f, stale = fence(K.active, K.row, ARGV[1], ARGV[2])
if stale then
  return stale
end
if cancel_requested(K.row) then
  return {0, 'CANCEL_REQUESTED', 'cancel requested'}
end

-- compute
local deadline = now_ms() + lease

-- write
redis.call('ZREM', K.active, ARGV[1])
redis.call('ZADD', K.active, deadline, ARGV[1])
return {1, deadline}
