-- reap: active -> pending for each candidate whose lease expired (server time), or -> dead when it
-- had already used its last attempt (attempts - released >= max_attempts). attempts is not touched:
-- the next claim raises it, which fences the worker that lost the lease.
--
-- Validate, then write. An expired candidate whose row breaks the row schema (row.lua), whose state
-- is not 'active', or that has no row, is skipped and left exactly as it is, and reported; the
-- caller pages past it, and quarantine.lua moves it out of the way.
--
-- KEYS[1]     emq:{q}:active   ZSET
-- KEYS[2]     emq:{q}:pending  ZSET
-- KEYS[3]     emq:{q}:dead     ZSET
-- KEYS[4]     emq:{q}:metrics  HASH, fields 'reaped', 'dead'
-- KEYS[5]     emq:{q}:wake     LIST
-- KEYS[6]     emq:{q}:lanes    ZSET, the ring of lanes with ready work
-- KEYS[7..6+D]  emq:{q}:lane:<lane>:pending ZSET, one per declared lane
-- KEYS[7+D..] emq:{q}:job:<id> HASH, one row per candidate, in ARGV order
-- then        [unique] emq:{q}:unique:<name> STRING, optional: keys the rows name, released on dead;
--             [notify] emq:{q}:waiters ZSET and emq:{q}:done (a channel), optional: each job reaped to
--             dead (or retired as cancelled) that is awaited leaves waiters and 'dead <id>' (or
--             'cancelled <id>') is published (notify.lua)
--             [flow] emq:{q}:outbox ZSET: a child of a flow that dies or is retired as cancelled
--             records it there, for the relay to settle its parent (flow.lua; even a parent on this
--             slot); without it such a child fails the call (EMQARG, nothing written)
-- ARGV[1]     D, the number of declared lanes (>= 0)
-- ARGV[2..1+D]  the declared lane keys
-- ARGV[2+D..] candidate ids (the lowest-scored members of active)
-- [events]    optional, last: the stream emq:{q}:events declared after every other key, ARGV ending
--             with EVENTS_TAG, N (events.lua): adds 'reaped', 'dead' or 'cancelled' per job moved, in
--             the same move
-- returns     {now, reaped to pending, reaped to dead, {skipped id, reason, ...}, {id, name, ...},
--             retired as cancelled, {id, lane, ...}}: the 5th list [unique] holds the candidates left in
--             active because they would die (or be retired as cancelled) and their row names a unique
--             key that was not declared (unique.lua); an expired job whose row names a lane goes back to
--             that lane's pending (and the lane into the ring) when the lane is declared; otherwise it
--             stays in active and is listed in the last list, for the caller to declare its lane and
--             call again
--- @include "clock"
--- @include "int"
--- @include "candidates"
--- @include "keys"
--- @include "wake"
--- @include "pending"
--- @include "lanes"
--- @include "unique"
--- @include "cancel"
--- @include "notify"
--- @include "events"
--- @include "flow"

-- validate
local events = events_take(KEYS)
local K = {active = KEYS[1], pending = KEYS[2], dead = KEYS[3], metrics = KEYS[4], wake = KEYS[5],
  ring = KEYS[6]}
local now = now_ms()
local lanes, first, rows, _, problem, more = lane_args(key_list(KEYS, 7), true)
if problem then
  return redis.error_reply(problem)
end
local unique_declared_keys = key_set(more)
local unique_needed = {}
local moves = {}
local needs = {}
local valid, skipped = scan(K.active, 'active', first, #ARGV, rows, now, true, false, false, false)
for n = 1, #valid, 4 do
  local i, row, f, lane = valid[n], valid[n + 1], valid[n + 2], valid[n + 3]
  local id = ARGV[i]
  -- compute
  local to_dead = int(f[2]) - (int(f[4]) or 0) >= int(f[3])
  local cancelling = cancel_requested(row)
  -- [unique] released when the job dies or is retired as cancelled
  local unique, unique_name = nil, nil
  if to_dead or cancelling then
    unique, unique_name = unique_releasable(row, id, unique_declared_keys)
  end
  if unique == false then
    unique_needed[#unique_needed + 1] = id
    unique_needed[#unique_needed + 1] = unique_name
  elseif not to_dead and not cancelling and lane and not lanes[lane] then
    needs[#needs + 1] = id
    needs[#needs + 1] = lane
  else
    if lane and not to_dead and not cancelling then
      require_zset(lanes[lane])
    end
    local flow, flow_reply = nil, nil
    if to_dead or cancelling then
      flow, flow_reply = flow_plan(row, id, cancelling and 'cancelled' or 'dead', unique_declared_keys, true)
      if flow == false then
        return redis.error_reply('EMQARG ' .. id .. ' is a child of a flow: its death or cancel needs the outbox declared; '
          .. 'nothing was written')
      end
    end
    moves[#moves + 1] = {i, to_dead, int(f[5]) or 0, f[2], lane, row, unique, cancelling, flow}
  end
end
local reaped = 0
local dead = 0
local cancelled = 0
for _, move in ipairs(moves) do
  if move[8] then
    cancelled = cancelled + 1
  elseif move[2] then
    dead = dead + 1
  else
    reaped = reaped + 1
  end
end
if reaped > 0 then
  require_zset(K.pending)
  require_zset(K.ring)
end
if dead > 0 then
  require_zset(K.dead)
end
local count_reaped = counter_ok(K.metrics, 'reaped')
local count_dead = counter_ok(K.metrics, 'dead')
local count_cancelled = counter_ok(K.metrics, 'cancelled')
local wakeable = wake_ok(K.wake)
-- [notify] the awaited jobs among those that die or are retired as cancelled
local notified = {}
for _, move in ipairs(moves) do
  if move[8] or move[2] then
    local id = ARGV[move[1]]
    local waiters, channel = notify_keys(unique_declared_keys, move[6], id)
    if notify_waiting(waiters, id) then
      notified[#notified + 1] = {waiters, channel, move[8] and 'cancelled' or 'dead', id}
    end
  end
end

-- write
for _, move in ipairs(moves) do
  local id = ARGV[move[1]]
  local row = move[6]
  redis.call('ZREM', K.active, id)
  if move[8] then
    redis.call('DEL', row)
    flow_write(move[9], now)
    unique_release(move[7])
    event_add(events, 'cancelled', id, move[4])
  elseif move[2] then
    redis.call('ZADD', K.dead, now, id)
    redis.call('HSET', row, 'state', 'dead', 'dead_at', now, 'last_error', 'lease expired on attempt ' .. move[4])
    flow_write(move[9], now)
    unique_release(move[7])
    event_add(events, 'dead', id, move[4], 'state', 'dead', 'error', 'lease expired on attempt ' .. move[4])
  elseif move[5] then
    to_lane(lanes[move[5]], K.ring, row, id, move[5], move[3], now)
    event_add(events, 'reaped', id, move[4])
  else
    to_pending(K.pending, row, id, move[3], now)
    event_add(events, 'reaped', id, move[4])
  end
end
if reaped > 0 then
  if count_reaped then
    redis.call('HINCRBY', K.metrics, 'reaped', reaped)
  end
  wake(K.wake, wakeable)
end
if dead > 0 and count_dead then
  redis.call('HINCRBY', K.metrics, 'dead', dead)
end
if cancelled > 0 and count_cancelled then
  redis.call('HINCRBY', K.metrics, 'cancelled', cancelled)
end
for _, n in ipairs(notified) do
  notify(n[1], n[2], n[3], n[4])
end
return {now, reaped, dead, skipped, unique_needed, cancelled, needs}
