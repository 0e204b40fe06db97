-- lane_control: pause, resume, cap or limit one lane of a queue, or read its controls. The controls are
-- fields of the queue's lane-controls hash (includes/lane_controls.lua); no job moves: a paused
-- lane's jobs stay in its pending set (their location), state 'pending', and are claimed again
-- once it is resumed.
--
--   pause    set paused:<lane> and take the lane out of the ring, so that no claim reads it (an
--            enqueue of the paused lane leaves it out; a job promoted or reaped back to it puts it
--            back, and the next claim of the lanes takes it out again)
--   resume   delete paused:<lane>; when its pending set holds jobs, put the lane back at the tail of
--            the ring and push wake-up tokens (the wake list's cap, 16) so that idle pollers claim
--   cap      set cap:<lane> to ARGV[3] (>= 1): an enqueue that would leave more than that many jobs
--            in the lane's pending set is refused whole (EMQFULL, enqueue.lua)
--   uncap    delete cap:<lane>
--   limit    set the lane's own max-active (ARGV[4], max_active:<lane>) and/or rate (ARGV[5] starts
--            per ARGV[6] ms, rate:<lane> and period:<lane>), each >= 1 when given (0 leaves it as
--            it is): claims of the lane use them instead of the queue's lane max-active and lane
--            rate (claim_lanes.lua)
--   unlimit  delete the lane's own max-active, rate and period: the queue's lane defaults apply
--   read     write nothing
-- Validate, then write.
--
-- KEYS[1]  emq:{q}:lane-controls        HASH (lane_controls.lua)
-- KEYS[2]  emq:{q}:lane:<lane>:pending  ZSET, the lane's pending location
-- KEYS[3]  emq:{q}:lanes                ZSET, the ring of lanes with ready work
-- KEYS[4]  emq:{q}:wake                 LIST
-- ARGV[1]  the lane key (1-64 characters of [A-Za-z0-9._-])
-- ARGV[2]  'pause', 'resume', 'cap', 'uncap', 'limit', 'unlimit' or 'read'
-- ARGV[3]  the cap (>= 1) for 'cap', else ignored
-- ARGV[4..6] for 'limit': max-active, rate, period ms (0 for not given; a rate needs its period and
--          a period its rate, at least one of max-active and rate given), else optional and ignored
-- returns  {changed (1 or 0), paused (1 or 0), cap (0 for none), the lane's pending size,
--          max-active, rate, period ms (0 for none)}, as they are after the call; errors (nothing
--          written): EMQARG a bad lane key, mode, cap or limit, or a pending key that is not the
--          lane's; EMQKEYTYPE a key of the wrong type
--- @include "int"
--- @include "keys"
--- @include "wake"
--- @include "lanes"
--- @include "lane_controls"

-- validate
local K = {controls = KEYS[1], pending = KEYS[2], ring = KEYS[3], wake = KEYS[4]}
if #KEYS ~= 4 then
  return redis.error_reply('EMQARG lane_control takes 4 keys, got ' .. #KEYS .. '; nothing was written')
end
local lane = ARGV[1] or ''
if #lane < 1 or #lane > 64 or not string.match(lane, '^[A-Za-z0-9._-]+$') then
  error('EMQARG lane key ' .. lane .. ' must be 1-64 characters of [A-Za-z0-9._-]; nothing was written', 0)
end
local suffix = ':lane:' .. lane .. ':pending'
if string.sub(K.pending, -#suffix) ~= suffix then
  error('EMQARG key ' .. K.pending .. ' is not the pending key of lane ' .. lane .. '; nothing was written', 0)
end
local mode = ARGV[2]
local MODES = {pause = true, resume = true, cap = true, uncap = true, limit = true, unlimit = true, read = true}
if not MODES[mode] then
  error("EMQARG ARGV[2] must be 'pause', 'resume', 'cap', 'uncap', 'limit', 'unlimit' or 'read', was "
    .. tostring(mode) .. '; nothing was written', 0)
end
local cap = (mode == 'cap') and arg_int(3, 1) or nil
local limits = nil
if mode == 'limit' then
  limits = {max_active = arg_int(4, 0), rate = arg_int(5, 0), period = arg_int(6, 0)}
  if (limits.rate > 0) ~= (limits.period > 0) then
    error('EMQARG a lane rate (ARGV[5], was ' .. ARGV[5] .. ') needs its period (ARGV[6], was ' .. ARGV[6]
      .. '), both >= 1; nothing was written', 0)
  end
  if limits.max_active == 0 and limits.rate == 0 then
    error('EMQARG a lane limit needs a max-active or a rate >= 1; nothing was written', 0)
  end
end
controls_ok(K.controls)
require_zset(K.pending)
require_zset(K.ring)
local wakeable = wake_ok(K.wake)
local paused_field, cap_field = 'paused:' .. lane, 'cap:' .. lane
local paused = redis.call('HEXISTS', K.controls, paused_field) == 1
local current = lane_cap(K.controls, lane)
local own = lane_controls(K.controls, {lane})[lane]
local size = redis.call('ZCARD', K.pending)

-- write
local changed = 0
if mode == 'pause' then
  if not paused then
    redis.call('HSET', K.controls, paused_field, '1')
    changed = 1
  end
  redis.call('ZREM', K.ring, lane)
  paused = true
elseif mode == 'resume' then
  if paused then
    redis.call('HDEL', K.controls, paused_field)
    changed = 1
    if size > 0 then
      to_ring(K.ring, lane)
      wake_all(K.wake, wakeable)
    end
  end
  paused = false
elseif mode == 'cap' then
  if current ~= cap then
    redis.call('HSET', K.controls, cap_field, cap)
    changed = 1
  end
  current = cap
elseif mode == 'uncap' then
  if redis.call('HDEL', K.controls, cap_field) == 1 then
    changed = 1
  end
  current = nil
elseif mode == 'limit' then
  local fields = {}
  if limits.max_active > 0 and own.max_active ~= limits.max_active then
    fields[#fields + 1] = 'max_active:' .. lane
    fields[#fields + 1] = limits.max_active
  end
  if limits.rate > 0 and (own.rate ~= limits.rate or own.period ~= limits.period) then
    fields[#fields + 1] = 'rate:' .. lane
    fields[#fields + 1] = limits.rate
    fields[#fields + 1] = 'period:' .. lane
    fields[#fields + 1] = limits.period
  end
  if #fields > 0 then
    redis.call('HSET', K.controls, unpack(fields))
    changed = 1
  end
  own = lane_controls(K.controls, {lane})[lane]
elseif mode == 'unlimit' then
  if redis.call('HDEL', K.controls, 'max_active:' .. lane, 'rate:' .. lane, 'period:' .. lane) > 0 then
    changed = 1
  end
  own = {}
end
return {changed, paused and 1 or 0, current or 0, size, own.max_active or 0, own.rate or 0, own.period or 0}
