-- cancel: a job, by id, in whatever state it is.
--
--   pending, schedule, dead, waiting (a parent of a flow)
--                            the id leaves its location and the row is retired, in one move
--                            (counter 'cancelled'); nothing is kept, like a completed job
--   active                   the row is marked 'cancel_requested_at' (server ms) and the job stays
--                            where it is, leased to its worker: the lease renewal (extend.lua)
--                            refuses and reports it, and the worker interrupts the handler; the
--                            script that then takes the job out of active (complete, retry,
--                            release, reap) retires it as cancelled instead (includes/cancel.lua),
--                            so the handler's outcome is discarded. Counter 'cancel_requested'
--   no row, in no location   nothing to do: the job finished (its row was retired) or never existed
--
-- Validate, then write. An id with no row or a row breaking the row schema (row.lua), a row whose
-- state names a location the id is not in, and a quarantined job are refused and left exactly as
-- they are.
--
-- KEYS[1]  emq:{q}:pending     ZSET
-- KEYS[2]  emq:{q}:active      ZSET
-- KEYS[3]  emq:{q}:schedule    ZSET
-- KEYS[4]  emq:{q}:dead        ZSET
-- KEYS[5]  emq:{q}:quarantine  ZSET
-- KEYS[6]  emq:{q}:job:<id>    HASH
-- KEYS[7]  emq:{q}:metrics     HASH, fields 'cancelled', 'cancel_requested'
-- KEYS[8..] optional, in any order: [unique] emq:{q}:unique:<name> STRING, the key the row names,
--          released when a waiting job is cancelled; [lanes] emq:{q}:lane:<lane>:pending ZSET and
--          emq:{q}:lanes ZSET, where a pending job of a lane waits
--          [notify] emq:{q}:waiters ZSET and emq:{q}:done (a channel): when the job is awaited, it
--          leaves waiters and 'cancelled <id>' is published (notify.lua)
--          [flow] emq:{q}:waiting ZSET, where a parent of a flow waits (cancelled with its waiting
--          subtree), and emq:{q}:outbox ZSET: a child not finished settles its parent, a waiting
--          parent cancels its children not finished, through records there (flow.lua; FLOW_KEYS,
--          nothing written, when a record is due and the outbox was not declared)
-- ARGV[1]  id
-- [events] optional, last: the stream emq:{q}:events declared after every other key, ARGV ending with
--          EVENTS_TAG, N (events.lua): adds 'cancelled' (field state) for a waiting job, in the same
--          move; an active job's 'cancelled' comes from the script that takes it out of active
-- returns  {1, 'CANCELLED', state}         removed from pending, schedule or dead
--          {1, 'REQUESTED', 'active', at}  the active job is marked (at: when the mark was first made)
--          {0, 'NOT_FOUND', detail}        no row and in no location
--          {0, 'REFUSED', detail}          a member no transition may move (quarantine's business)
--          {0, 'UNIQUE_KEY', name}         [unique] (nothing written) the row names a key not declared
--          {0, 'LANE_KEY', lane}           [lanes] (nothing written) a pending job of a lane whose keys
--                                          were not declared
--- @include "clock"
--- @include "int"
--- @include "row"
--- @include "waiting"
--- @include "notify"
--- @include "events"
--- @include "flow"

-- validate
local events = events_take(KEYS)
local K = {pending = KEYS[1], active = KEYS[2], schedule = KEYS[3], dead = KEYS[4], quarantine = KEYS[5],
  row = KEYS[6], metrics = KEYS[7]}
local declared = key_set(KEYS, 8)
local id = ARGV[1]
local LOCATION_KEYS = {pending = K.pending, active = K.active, schedule = K.schedule, dead = K.dead,
  quarantine = K.quarantine}
flow_admin_locations(LOCATION_KEYS, declared)
local f, problem = read_row(K.row)
if not f then
  for name, key in pairs(LOCATION_KEYS) do
    if redis.call('ZSCORE', key, id) then
      return {0, 'REFUSED', 'in ' .. name .. ' with ' .. problem}
    end
  end
  return {0, 'NOT_FOUND', problem .. ': finished, cancelled or never enqueued'}
end
problem = field_problem(f)
if problem then
  return {0, 'REFUSED', problem}
end
local state = f[1]
if state == 'quarantine' then
  return {0, 'REFUSED', 'quarantined: repair or delete it by hand'}
end
if state == 'completed' then
  return {0, 'NOT_FOUND', 'completed (kept by the queue\'s retention)'}
end
if not LOCATION_KEYS[state] then
  return {0, 'REFUSED', "state '" .. state .. "' is not a location cancel knows"}
end
local lane, ring = waiting_lane(K, declared, LOCATION_KEYS, state)
if lane == nil then
  return ring
end
if not redis.call('ZSCORE', LOCATION_KEYS[state], id) then
  return {0, 'REFUSED', "state is '" .. state .. "' but the id is not there"}
end

if state == 'active' then
  local at = redis.call('HGET', K.row, 'cancel_requested_at')
  if at then
    return {1, 'REQUESTED', 'active', int(at) or 0}
  end
  local counted = counter_ok(K.metrics, 'cancel_requested')
  -- compute
  local now = now_ms()
  -- write
  redis.call('HSET', K.row, 'cancel_requested_at', now)
  if counted then
    redis.call('HINCRBY', K.metrics, 'cancel_requested', 1)
  end
  return {1, 'REQUESTED', 'active', now}
end

local plan, refused = waiting_plan(K, declared, id, 'cancelled')
if not plan then
  return refused
end
local flow, flow_reply = flow_admin_plan(K.row, id, state, 'cancelled', declared)
if flow == false then
  return flow_reply
end

local awaited = awaited_by(declared, K.row, id)

-- write
waiting_remove(K, plan, LOCATION_KEYS[state], id, lane, ring)
flow_admin_write(flow, now_ms())
notify_awaited(awaited, 'cancelled', id)
event_add(events, 'cancelled', id, f[2], 'state', state)
return {1, 'CANCELLED', state}
