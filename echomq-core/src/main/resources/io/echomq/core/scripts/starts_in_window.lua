-- starts_in_window: how many starts a rate limiter's log holds in the window of 'period' ms that
-- ends now (server time), read only (for the endpoint and meters: the rate limit's current use).
-- The claim scripts count the same members (limits.lua).
--
-- KEYS[1]  emq:{q}:starts  ZSET, the rate limiter's log: one member per start, score server ms
-- ARGV[1]  the period in ms (>= 1)
-- returns  {now, starts in the window}
--- @include "clock"
--- @include "int"
--- @include "keys"

local K = {starts = KEYS[1]}
local period = arg_int(1, 1)
local now = now_ms()
if key_type(K.starts) == 'none' then
  return {now, 0}
end
require_zset(K.starts)
return {now, redis.call('ZCOUNT', K.starts, '(' .. (now - period), '+inf')}
