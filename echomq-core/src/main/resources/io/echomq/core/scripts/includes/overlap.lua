-- include overlap: a recurring schedule's overlap policy at a fire time (fire.lua). The previous
-- occurrence is the job whose id the schedule's last-fire hash records as 'job:<name>'
-- (occurrence.lua); its row key is declared by the caller.
--
-- overlap_policy(value)   value when it names a policy (ALLOW, SKIP, CANCEL_PREVIOUS, HOLD_ONE),
--                         else raises an EMQARG error (nothing written yet)
-- previous_live(locations, row, id)
--                         the state of the previous occurrence when it is live: 'pending', 'schedule'
--                         or 'active' with its id in that location (locations: state -> key); nil
--                         when it finished (no row), is dead, completed and kept, or quarantined
-- cancel_previous(locations, row, metrics, id, state, now)
--                         a pending or scheduled previous occurrence leaves its location and its row
--                         is deleted (counter 'cancelled'): an occurrence is a plain job (no lane,
--                         unique key, flow or batch), so that is all cancel.lua does for one; an
--                         active one is marked 'cancel_requested_at' as cancel.lua marks it (counter
--                         'cancel_requested'), and the script that takes it out of active retires it
--                         (the cancel include). The counter is checked before the first write.
--                         Returns the event type to add for it ('cancelled'), or nil
--- @include "keys"

local OVERLAP_POLICIES = {ALLOW = true, SKIP = true, CANCEL_PREVIOUS = true, HOLD_ONE = true}

local function overlap_policy(value)
  if not OVERLAP_POLICIES[value] then
    error('EMQARG overlap policy must be ALLOW, SKIP, CANCEL_PREVIOUS or HOLD_ONE, was ' .. tostring(value)
      .. '; nothing was written', 0)
  end
  return value
end

local function previous_live(locations, row, id)
  local state = redis.call('HGET', row, 'state')
  local location = state and locations[state]
  if location and redis.call('ZSCORE', location, id) then
    return state
  end
  return nil
end

local function cancel_previous(locations, row, metrics, id, state, now)
  if state == 'active' then
    local counted = counter_ok(metrics, 'cancel_requested')
    if redis.call('HSETNX', row, 'cancel_requested_at', now) == 1 and counted then
      redis.call('HINCRBY', metrics, 'cancel_requested', 1)
    end
    return nil
  end
  local counted = counter_ok(metrics, 'cancelled')
  redis.call('ZREM', locations[state], id)
  redis.call('DEL', row)
  if counted then
    redis.call('HINCRBY', metrics, 'cancelled', 1)
  end
  return 'cancelled'
end
