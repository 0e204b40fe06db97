-- include cancel: what the scripts that take a job out of active do when a cancel was asked for it
-- (cancel.lua marks the active row's 'cancel_requested_at'): the job is retired as cancelled, so
-- the handler's outcome is discarded and the job never runs again.
--
-- cancel_requested(row)               whether the row carries the mark
-- retire_cancelled(active, row, id, metrics)
--                                     ZREM the id from active, DEL the row, count 'cancelled'; the
--                                     counter is checked before the first write. Returns the reply
--                                     {0, 'CANCELLED', detail}: the caller's own outcome did not apply
--- @include "keys"

local function cancel_requested(row)
  return redis.call('HEXISTS', row, 'cancel_requested_at') == 1
end

local function retire_cancelled(active, row, id, metrics)
  local counted = counter_ok(metrics, 'cancelled')
  redis.call('ZREM', active, id)
  redis.call('DEL', row)
  if counted then
    redis.call('HINCRBY', metrics, 'cancelled', 1)
  end
  return {0, 'CANCELLED', 'cancelled while active; the outcome was discarded'}
end
