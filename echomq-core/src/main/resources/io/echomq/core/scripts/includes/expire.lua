-- include expire: a job not claimed by its deadline ('expires_at' on its row, server ms: expiry.lua)
-- never runs. The scripts that hand a job on to run, the claims (claim.lua, claim_lanes.lua) and the
-- promotion (promote.lua), look at the deadline of each candidate they read anyway (candidates.lua's
-- scan reads it in the same HMGET as the row's schema fields) and move one whose deadline has passed
-- (expires_at <= now) to dead instead, in the same move: state 'dead', 'dead_at' now, 'dead_reason'
-- 'expired', 'last_error' naming the deadline; counted in emq:{q}:metrics fields 'dead' and
-- 'expired'. A child of a flow (or a job of a batch) reports 'dead' through the outbox exactly as the
-- reap's dead-letter does (flow.lua, outbox only), so its parent counts it under its policy; a caller
-- awaiting it hears 'dead <id>' (notify.lua); with events, an 'expired' entry (state dead, error).
-- A unique key the row names is not released (the call does not declare it): unique.lua treats a
-- key held by a dead job as free. No script scans for expired jobs: one deep in pending leaves when a
-- claim reaches it.
--
-- The keys are an optional group declared after every other key but the event stream, ARGV ending
-- with EXPIRE_TAG (before the events' tag): emq:{q}:dead, emq:{q}:metrics, emq:{q}:outbox,
-- emq:{q}:waiters, emq:{q}:done. A call without the group moves no expired job: it passes each over,
-- reason 'expired', left where it is (and never claims or promotes it).
--
-- expire_take(keys)    call after events_take: {move = false} without EXPIRE_TAG; else the group,
--                      checked (EMQARG, nothing written) and removed from keys and ARGV, move = true.
--                      The caller sets x.now, the server time scan compares deadlines with
-- expire_plan(x)       read before the first write: what moving the candidates scan found expired
--                      (x.found: ARGV index, row key, fields, location) needs; returns how many
-- expire_write(x, events)  the moves, then the counters
--- @include "keys"
--- @include "int"
--- @include "notify"
--- @include "events"
--- @include "flow"

local EXPIRE_TAG = '=expire'

local function expire_take(keys)
  local n = #ARGV
  local x = {move = false, found = {}, moves = {}}
  if n < 1 or ARGV[n] ~= EXPIRE_TAG then
    return x
  end
  local base = string.match(keys[1], '^(.*:)[^:]*$')
  local group = {base .. 'dead', base .. 'metrics', base .. 'outbox', base .. 'waiters', base .. 'done'}
  local m = #keys - 5
  for j = 1, 5 do
    if keys[m + j] ~= group[j] then
      error('EMQARG expiry needs ' .. table.concat(group, ', ') .. ' declared before the event stream; '
        .. 'nothing was written', 0)
    end
  end
  for _ = 1, 5 do
    table.remove(keys, m + 1)
  end
  table.remove(ARGV)
  x.move = true
  x.dead, x.metrics = group[1], group[2]
  x.declared = {[group[3]] = true, [group[4]] = true, [group[5]] = true}
  return x
end

local function expire_plan(x)
  if #x.found == 0 then
    return 0
  end
  require_zset(x.dead)
  for n = 1, #x.found, 4 do
    local row, f = x.found[n + 1], x.found[n + 2]
    local id = ARGV[x.found[n]]
    local flow = flow_plan(row, id, 'dead', x.declared, true)
    if flow == false then
      error('EMQARG ' .. id .. ' is a child of a flow: its expiry needs the outbox declared; nothing was written', 0)
    end
    x.moves[#x.moves + 1] = {id = id, row = row, attempts = f[2], at = f[8], location = x.found[n + 3], flow = flow,
      awaited = awaited_by(x.declared, row, id)}
  end
  x.count_dead = counter_ok(x.metrics, 'dead')
  x.count_expired = counter_ok(x.metrics, 'expired')
  return #x.moves
end

local function expire_write(x, events)
  if #x.moves == 0 then
    return
  end
  for _, m in ipairs(x.moves) do
    local text = 'expired: not claimed by its deadline ' .. m.at .. ' (server ms)'
    redis.call('ZREM', m.location, m.id)
    redis.call('ZADD', x.dead, x.now, m.id)
    redis.call('HSET', m.row, 'state', 'dead', 'dead_at', x.now, 'dead_reason', 'expired', 'last_error', text)
    flow_write(m.flow, x.now)
    notify_awaited(m.awaited, 'dead', m.id)
    event_add(events, 'expired', m.id, m.attempts, 'state', 'dead', 'error', text)
  end
  if x.count_dead then
    redis.call('HINCRBY', x.metrics, 'dead', #x.moves)
  end
  if x.count_expired then
    redis.call('HINCRBY', x.metrics, 'expired', #x.moves)
  end
end
