-- replay: dead -> pending with a fresh attempt budget.
--
-- attempts stays monotonic (it is the fencing token); "attempts reset" means every claim so far
-- stops counting against the budget: released = attempts, max_attempts = budget, so the next
-- claim is attempt 1 again (attempt = attempts - released) and listener caps count afresh.
-- Validate, then write: a row that breaks the row schema (row.lua) is not replayed.
--
-- A child of a flow (its row names a parent, flow.lua) starts a new round: 'flow_round' is raised
-- and a record 'reopen <parent queue> <parent id> <id> <round>' goes to the outbox, in the same
-- move; the relay re-opens the parent (docs/flows.md, "Cancelling and replaying").
--
-- KEYS[1]  emq:{q}:dead     ZSET
-- KEYS[2]  emq:{q}:pending  ZSET
-- KEYS[3]  emq:{q}:job:<id> HASH
-- KEYS[4]  emq:{q}:metrics  HASH, field 'replayed'
-- KEYS[5]  emq:{q}:wake     LIST
-- KEYS[6]  emq:{q}:schedule ZSET: a job of a lane (row field 'lane') goes there, due now, and the
--          next promote tick returns it to its lane (this script does not know the lane's keys)
-- KEYS[7]  emq:{q}:outbox   ZSET (flow.lua), written only for a child of a flow
-- ARGV[1]  id
-- ARGV[2]  budget (>= 1)
-- [events] optional, last: the stream emq:{q}:events declared after every other key, ARGV ending with
--          EVENTS_TAG, N (events.lua): adds 'replayed' (field state: pending, or schedule for a job of a lane), in the same move
-- returns  {1} applied, or {0, code, detail}: NOT_DEAD when the id is not in dead, MALFORMED_ROW,
--          WRONG_STATE when the row's state is not 'dead'
--- @include "clock"
--- @include "int"
--- @include "row"
--- @include "keys"
--- @include "wake"
--- @include "pending"
--- @include "lanes"
--- @include "events"
--- @include "flow"

-- validate
local events = events_take(KEYS)
local K = {dead = KEYS[1], pending = KEYS[2], row = KEYS[3], metrics = KEYS[4], wake = KEYS[5],
  schedule = KEYS[6], outbox = KEYS[7]}
local id = ARGV[1]
local budget = arg_int(2, 1)
local f, refused = row_at(K.dead, K.row, id, 'dead', 'NOT_DEAD', 'not dead')
if not f then
  return refused
end
local lane = redis.call('HGET', K.row, 'lane')
require_zset(lane and K.schedule or K.pending)
local counted = counter_ok(K.metrics, 'replayed')
local wakeable = wake_ok(K.wake)
local head = lane and schedule_head(K.schedule)
local parent = redis.call('HMGET', K.row, 'flow_parent_queue', 'flow_parent_id', 'flow_round')
local round = nil
if parent[1] and parent[2] then
  if not K.outbox then
    error('EMQARG ' .. id .. ' is a child of a flow: its replay needs emq:{q}:outbox as KEYS[7]; nothing was written', 0)
  end
  require_zset(K.outbox)
  round = (int(parent[3]) or 0) + 1
end

-- compute
local now = now_ms()

-- write
redis.call('ZREM', K.dead, id)
if lane then
  via_schedule(K.schedule, K.row, id, now)
  wake_due(K.wake, wakeable, head, now)
else
  to_pending(K.pending, K.row, id, int(f[5]) or 0, now)
end
redis.call('HSET', K.row, 'released', f[2], 'max_attempts', budget)
-- a job that expired (expire.lua) runs again without its deadline
redis.call('HDEL', K.row, 'dead_at', 'dead_reason', 'expires_at')
if round then
  redis.call('HSET', K.row, 'flow_round', round)
  redis.call('ZADD', K.outbox, now, flow_record('reopen', parent[1], parent[2], id, round))
end
event_add(events, 'replayed', id, f[2], 'state', lane and 'schedule' or 'pending')
if counted then
  redis.call('HINCRBY', K.metrics, 'replayed', 1)
end
wake(K.wake, wakeable)
return {1}
