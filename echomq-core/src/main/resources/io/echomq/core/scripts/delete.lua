-- delete: pending | schedule | dead | completed | waiting -> gone. The id leaves its location and its row is
-- deleted in the same move. An active job is refused (its worker holds a lease; cancelling a
-- running job is another verb).
--
-- Validate, then write: the id must be in the location its row names, and the row must keep the
-- row schema (row.lua); otherwise nothing changes and the reply says why (quarantine.lua moves
-- malformed members out of the way).
--
-- KEYS[1]  emq:{q}:pending    ZSET
-- KEYS[2]  emq:{q}:schedule   ZSET
-- KEYS[3]  emq:{q}:dead       ZSET
-- KEYS[4]  emq:{q}:completed  ZSET
-- KEYS[5]  emq:{q}:active     ZSET
-- KEYS[6]  emq:{q}:job:<id>   HASH
-- KEYS[7]  emq:{q}:metrics    HASH, field 'deleted'
-- KEYS[8..] optional, in any order: [unique] emq:{q}:unique:<name> STRING, the key the row names,
--          released here; [lanes] emq:{q}:lane:<lane>:pending ZSET and emq:{q}:lanes ZSET, where a
--          pending job of a lane waits (LANE_KEY, nothing written, when they were not declared)
--          [notify] emq:{q}:waiters ZSET and emq:{q}:done (a channel): when the job is awaited, it
--          leaves waiters and 'deleted <id>' is published (notify.lua)
--          [flow] emq:{q}:waiting ZSET and emq:{q}:outbox ZSET, as cancel.lua declares them: a
--          deleted child not finished settles its parent (outcome 'deleted'), a deleted waiting
--          parent cancels its children not finished (flow.lua)
-- ARGV[1]  id
-- [events] optional, last: the stream emq:{q}:events declared after every other key, ARGV ending with
--          EVENTS_TAG, N (events.lua): adds 'deleted' (field state: the location it left), in the same move
-- returns  {1, state} deleted from that location, or {0, code, detail}: NOT_FOUND when the job has
--          no row, ACTIVE when it is leased, MALFORMED_ROW, WRONG_STATE when the row names a
--          location the id is not in; [unique] UNIQUE_KEY (nothing written) when the row names a key
--          not declared
--- @include "clock"
--- @include "row"
--- @include "waiting"
--- @include "notify"
--- @include "flow"
--- @include "events"

-- validate
local events = events_take(KEYS)
local K = {pending = KEYS[1], schedule = KEYS[2], dead = KEYS[3], completed = KEYS[4], active = KEYS[5],
  row = KEYS[6], metrics = KEYS[7]}
local declared = key_set(KEYS, 8)
local id = ARGV[1]
local LOCATION_KEYS = {pending = K.pending, schedule = K.schedule, dead = K.dead, completed = K.completed,
  active = K.active}
flow_admin_locations(LOCATION_KEYS, declared)
local f, problem = read_row(K.row)
if problem == 'no row' then
  return {0, 'NOT_FOUND', 'no row'}
end
problem = problem or field_problem(f)
if problem then
  return {0, 'MALFORMED_ROW', problem}
end
local state = f[1]
local lane, ring = waiting_lane(K, declared, LOCATION_KEYS, state)
if lane == nil then
  return ring
end
local location = LOCATION_KEYS[state]
if not location or not redis.call('ZSCORE', location, id) then
  return {0, 'WRONG_STATE', 'state is ' .. state .. ', and the id is not there'}
end
if state == 'active' then
  return {0, 'ACTIVE', 'the job is active (leased to a worker)'}
end
local awaited = awaited_by(declared, K.row, id)
local plan, refused = waiting_plan(K, declared, id, 'deleted')
if not plan then
  return refused
end
local flow, flow_reply = flow_admin_plan(K.row, id, state, 'deleted', declared)
if flow == false then
  return flow_reply
end

-- write
waiting_remove(K, plan, location, id, lane, ring)
flow_admin_write(flow, now_ms())
notify_awaited(awaited, 'deleted', id)
event_add(events, 'deleted', id, f[2], 'state', state)
return {1, state}
