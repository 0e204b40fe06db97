-- progress: how far a running job got, written by its worker while it holds the lease.
--
-- Fenced like complete (fence.lua): a worker whose lease was lost (reaped, claimed again elsewhere)
-- gets the stale answer and writes nothing. A percent goes in the row's 'progress' field, a
-- converted object (the payload converter's text, capped by the caller) in 'progress_data'; each
-- write replaces the previous value of its field. The row keeps both until it is retired.
--
-- KEYS[1]  emq:{q}:active   ZSET
-- KEYS[2]  emq:{q}:job:<id> HASH
-- ARGV[1]  id
-- ARGV[2]  token
-- ARGV[3]  'percent' or 'data'
-- ARGV[4]  the percent (an integer 0-100), or the object's text
-- [events]  optional, last: the stream emq:{q}:events declared after every other key, ARGV ending
--           with EVENTS_TAG, N (events.lua): adds 'progress' (field progress or progress_data), in the same move
-- returns  {1} applied, or {0, code, detail} stale (a code of fence.lua); errors (nothing written):
--          EMQARG a kind other than percent or data, a percent outside 0-100
--- @include "int"
--- @include "fence"
--- @include "events"

-- validate
local events = events_take(KEYS)
local K = {active = KEYS[1], row = KEYS[2]}
local field
if ARGV[3] == 'percent' then
  local percent = arg_int(4, 0)
  if percent > 100 then
    error('EMQARG progress must be between 0 and 100, was ' .. ARGV[4] .. '; nothing was written', 0)
  end
  field = 'progress'
elseif ARGV[3] == 'data' then
  field = 'progress_data'
else
  error('EMQARG ARGV[3] must be percent or data, was ' .. tostring(ARGV[3]) .. '; nothing was written', 0)
end
local f, stale = fence(K.active, K.row, ARGV[1], ARGV[2])
if stale then
  return stale
end

-- write
redis.call('HSET', K.row, field, ARGV[4])
event_add(events, 'progress', ARGV[1], f[2], field, ARGV[4])
return {1}
