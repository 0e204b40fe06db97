-- pause: pause or resume a queue cluster-wide. While emq:{q}:paused exists, claim.lua claims
-- nothing from the queue, on every node; jobs keep arriving, promoting and reaping as usual.
--
--   pause      SET the flag with no expiry (a timed pause in place becomes indefinite)
--   pause_for  SET the flag for ARGV[2] ms, unless an indefinite pause is in place or a timed one
--              lasts longer: a pause is only ever made longer here, never shorter
--   resume     DEL the flag, and push wake-up tokens (the wake list's cap, 16) so that idle pollers
--              of every node claim at once rather than at the end of their idle wait
-- Validate, then write.
--
-- KEYS[1]  emq:{q}:paused  STRING, the reason; PX for a timed pause
-- KEYS[2]  emq:{q}:wake    LIST
-- ARGV[1]  'pause', 'pause_for' or 'resume'
-- ARGV[2]  the pause in ms (>= 1) for 'pause_for', else ignored
-- ARGV[3]  the reason, kept as the flag's value ('pause' and 'pause_for')
-- returns  {changed (1 or 0), ms left of the pause now: -1 indefinite, -2 not paused}
--- @include "int"
--- @include "keys"
--- @include "wake"

-- validate
local K = {paused = KEYS[1], wake = KEYS[2]}
local mode = ARGV[1]
if mode ~= 'pause' and mode ~= 'pause_for' and mode ~= 'resume' then
  return redis.error_reply("EMQARG ARGV[1] must be 'pause', 'pause_for' or 'resume', was " .. tostring(mode)
    .. '; nothing was written')
end
local ms = (mode == 'pause_for') and arg_int(2, 1) or 0
local t = key_type(K.paused)
if t ~= 'string' and t ~= 'none' then
  error('EMQKEYTYPE ' .. K.paused .. ' is a ' .. t .. ', not a string; nothing was written', 0)
end
local left = redis.call('PTTL', K.paused)

if mode == 'resume' then
  local wakeable = wake_ok(K.wake)
  if left == -2 then
    return {0, -2}
  end
  -- write
  redis.call('DEL', K.paused)
  wake_all(K.wake, wakeable)
  return {1, -2}
end

if mode == 'pause' then
  if left == -1 then
    return {0, -1}
  end
  -- write
  redis.call('SET', K.paused, ARGV[3] or '')
  return {1, -1}
end

if left == -1 or left >= ms then
  return {0, left}
end
-- write
redis.call('SET', K.paused, ARGV[3] or '', 'PX', ms)
return {1, ms}
