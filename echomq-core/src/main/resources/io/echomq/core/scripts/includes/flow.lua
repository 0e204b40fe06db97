-- include flow: a parent job that waits in emq:{q}:waiting until its children have finished
-- (docs/flows.md).
--
-- A child's row names its parent: 'flow_parent_queue', 'flow_parent_id', 'flow_policy' (fail,
-- ignore or remove: what a dead child does to its parent) and 'flow_local' ('1' when the parent is in
-- the child's own queue, so on its slot). The parent's row has state 'waiting', 'children_left' and,
-- per child that has finished, a field 'child:<queue>/<id>' with the child's outcome (completed,
-- failed, removed, dead, cancelled or deleted): written with HSETNX, so a child is counted at most
-- once. Its field 'flow_children' lists its children, '<queue>/<id>' each, in spec order.
--
-- When a child finishes, the script that finishes it (complete, complete_all, retry) settles the
-- parent in the same move when the parent is on its slot; otherwise it writes a record
-- '<outcome> <parent queue> <parent id> <child id>' to emq:{q}:outbox on the child's slot, which the
-- relay (flow_apply.lua on the parent's slot, then flow_ack.lua on the child's) carries over. A
-- batch (batch.lua) writes records of its own to its home queue's outbox, '<completed or skipped>
-- <callback queue> <callback id> <batch id>', applied and removed the same way. Keys
-- are declared by the caller (as unique.lua's are): the script derives their names from the row key
-- and answers {0, 'FLOW_KEYS', parent id or ''} (nothing written) when one is missing; the caller
-- declares emq:{q}:outbox and, for a local parent (parent id given), its row, emq:{q}:waiting,
-- emq:{q}:pending, emq:{q}:dead and emq:{q}:wake.
--
-- flow_plan(row, id, outcome, declared[, outbox_only])  what finishing the child needs, read before
--     the first write: nil when the row names no parent; a plan; or false and the FLOW_KEYS reply.
--     outbox_only (the reap, which declares only the outbox): a local parent is settled through the
--     outbox and the relay too. A local parent settled in the same move is told to its waiters when
--     declared holds its queue's emq:{q}:waiters and emq:{q}:done (notify.lua): the child's own,
--     which every script that ends a job declares
-- flow_write(plan, now[, events])  the writes of the plan; events (events.lua) of the child's queue,
--     which is the parent's for a local settle
-- flow_check(waiting, dead, parent_row, parent_id, child, outcome, round, declared)  the parent's
--     side, read only: nil when there is nothing to do (the parent released, run or gone; the child
--     counted in this round already; a record of an older round); else a settle plan. declared (a
--     set of the call's keys, may be nil) holds the parent queue's emq:{q}:waiters and emq:{q}:done
--     when the caller declared them: a waiting parent that someone awaits is then looked up there
--     (notify.lua's one ZSCORE), so the settle that ends it tells its waiters
-- flow_settle(s, waiting, pending, dead, wake, now[, events])  the parent's side, the writes: a newer round
--     re-opens first (flow_reopen), then the child is counted, the parent to pending when it was
--     the last, or to dead when a child died, was cancelled or deleted under policy 'fail'; or, for
--     'skipped' (a batch's callback it will never call for, includes/batch.lua), a waiting parent
--     retired: out of waiting, its row deleted; returns
--     the parent's new state. A parent that is itself a child of a flow and moves waiting -> dead
--     writes its own record (its policy's outcome, its round) to its queue's outbox, once; one
--     re-opened dead -> waiting raises its flow_round and writes a reopen record there (its parent
--     waits again). The outbox is checked in flow_check, so every caller declares it. A parent the
--     settle ends, when awaited (flow_check's declared), leaves waiters and is published on done as
--     notify.lua does for every job that ends: 'dead <id>' (dead by a child), 'skipped <id>' (a
--     callback retired). With events
--     (events.lua, the parent queue's stream): 'promoted' to pending, 'dead' (state dead, error) or,
--     for 'skipped', 'deleted' (state waiting); a parent still waiting writes none: it did not move
-- flow_recast(plan, outcome)  the plan of a finishing child with another outcome (a child retired
--     as cancelled by the script that was to complete it)
--
-- Cancel and delete (docs/flows.md, "Cancelling and replaying"): a child cancelled or deleted before
-- it finished settles its parent as if it had died, with outcome 'cancelled' or 'deleted' (policy
-- 'ignore': failed, 'remove': removed); always through the outbox. A waiting parent cancelled or
-- deleted leaves, in its own queue's outbox, one record 'cancel <child queue> <child id> <parent id>'
-- per child not finished: the relay cancels that child (cancel.lua on the child's slot; a cancel
-- applied twice finds nothing the second time, a running child is marked once), and a child that is
-- a waiting parent passes the cancel down the same way. Every record of an outbox reads
-- '<verb> <target queue> <target id> <id of the job in the outbox's queue>'.
-- flow_admin_locations(locations, declared)  adds locations.waiting (emq:{q}:waiting, beside
--     locations.pending) when the caller declared it, so cancel and delete take a waiting parent
--
-- Replay (docs/flows.md, "Cancelling and replaying"): a child's row has 'flow_round' (absent: 0),
-- raised by each replay (replay.lua), which writes 'reopen <parent queue> <parent id> <child id>
-- <round>' to the outbox. Every record of a child of round r > 0 ends with ' <r>'. The parent keeps
-- 'round:<queue>/<id>', the round it counts (absent: 0). A record of an older round changes nothing;
-- one of a newer round (the reopen, or the child's next outcome when it comes first) takes the old
-- 'child:' field off the parent (a failed or removed one gives 'children_left' its 1 back), moves a
-- parent dead by a child (state dead, attempts 0) back to waiting unless another child's fatal
-- outcome keeps it dead, then counts the outcome. A parent dead by a child still counts its other
-- children (none moves it), so it can wait again; a parent released or run is never re-opened.
-- flow_record(verb, queue, target, id, round)  the text of an outbox record
-- flow_admin_plan(row, id, state, outcome, declared)  read before the first write: the records a
--     cancel ('cancelled') or delete ('deleted') of the job in state leaves, nil for none, or false
--     and {0, 'FLOW_KEYS', ''} when emq:{q}:outbox was not declared
-- flow_admin_write(plan, now)  the writes
--- @include "keys"
--- @include "int"
--- @include "pending"
--- @include "wake"
--- @include "events"
--- @include "notify"

local FLOW_FATAL = {dead = 'is dead', cancelled = 'was cancelled', deleted = 'was deleted'}

local function flow_outcome(outcome, policy)
  if not FLOW_FATAL[outcome] then
    return outcome
  end
  if policy == 'ignore' then
    return 'failed'
  end
  if policy == 'remove' then
    return 'removed'
  end
  return outcome
end

-- an outbox record; the round only from the first replay on, so older records keep their form
local function flow_record(verb, queue, target, id, round)
  local record = verb .. ' ' .. queue .. ' ' .. target .. ' ' .. id
  if round and round > 0 then
    record = record .. ' ' .. round
  end
  return record
end

-- a parent that is itself a child of a flow: what its own parent needs to hear when it dies or is
-- re-opened (through its queue's outbox, which the caller declared), or nil
local function flow_up(parent_row, parent_id)
  local f = redis.call('HMGET', parent_row, 'flow_parent_queue', 'flow_parent_id', 'flow_policy', 'flow_round')
  if not f[1] or not f[2] then
    return nil
  end
  local outbox = string.sub(parent_row, 1, #parent_row - #parent_id - 4) .. 'outbox'
  require_zset(outbox)
  return {outbox = outbox, queue = f[1], id = f[2], policy = f[3], round = int(f[4]) or 0}
end

-- the first fatal outcome the parent records for a child other than skip, or nil
local function flow_blocker(parent_row, skip)
  local refs = redis.call('HGET', parent_row, 'flow_children')
  if not refs then
    return nil
  end
  for ref in string.gmatch(refs, '%S+') do
    if ref ~= skip then
      local o = redis.call('HGET', parent_row, 'child:' .. ref)
      if o and FLOW_FATAL[o] then
        return ref, o
      end
    end
  end
  return nil
end

local function flow_check(waiting, dead, parent_row, parent_id, child, outcome, round, declared)
  local p = redis.pcall('HMGET', parent_row, 'state', 'children_left', 'priority', 'child:' .. child,
    'round:' .. child, 'attempts')
  if p.err then
    return nil
  end
  local left, counted = int(p[2]), int(p[5]) or 0
  if not left or round < counted then
    return nil
  end
  if p[1] == 'waiting' then
    if not redis.call('ZSCORE', waiting, parent_id) then
      return nil
    end
  elseif p[1] ~= 'dead' or int(p[6]) ~= 0 or not redis.call('ZSCORE', dead, parent_id) then
    -- released, run, gone: nothing changes; a parent dead by a child records the others
    return nil
  end
  local reopen = round > counted
  if not reopen and (p[4] or outcome == 'reopen') then
    return nil
  end
  local s = {row = parent_row, id = parent_id, child = child, outcome = outcome, left = left,
    priority = int(p[3]) or 0, state = p[1], round = round, reopen = reopen, was = p[4],
    attempts = int(p[6]) or 0}
  if reopen and p[1] == 'dead' then
    s.blocker, s.blocker_outcome = flow_blocker(parent_row, child)
  end
  if FLOW_FATAL[outcome] or (reopen and p[1] == 'dead' and not s.blocker) then
    s.up = flow_up(parent_row, parent_id)
  end
  if p[1] == 'waiting' and outcome ~= 'reopen' and declared then
    -- any outcome: the script that completes a child may recast it as cancelled (flow_recast)
    s.awaited = awaited_by(declared, parent_row, parent_id)
  end
  return s
end

-- a replayed child (a round above the one counted): its outcome leaves the parent, a dead parent
-- waits again unless another child keeps it dead
local function flow_reopen(s, waiting, dead, now)
  redis.call('HSET', s.row, 'round:' .. s.child, s.round)
  if s.was then
    redis.call('HDEL', s.row, 'child:' .. s.child)
    if not FLOW_FATAL[s.was] then
      s.left = s.left + 1
      redis.call('HSET', s.row, 'children_left', s.left)
    end
  end
  if s.state ~= 'dead' then
    return
  end
  if s.blocker then
    redis.call('HSET', s.row, 'last_error', 'child ' .. s.blocker .. ' ' .. FLOW_FATAL[s.blocker_outcome])
    return
  end
  redis.call('ZREM', dead, s.id)
  redis.call('ZADD', waiting, now, s.id)
  redis.call('HSET', s.row, 'state', 'waiting')
  redis.call('HDEL', s.row, 'dead_at', 'last_error')
  s.state = 'waiting'
  if s.up then
    -- the parent's own parent, dead-lettered by it, is re-opened in a new round too
    s.up.round = s.up.round + 1
    redis.call('HSET', s.row, 'flow_round', s.up.round)
    redis.call('ZADD', s.up.outbox, now, flow_record('reopen', s.up.queue, s.up.id, s.id, s.up.round))
  end
end

local function flow_settle(s, waiting, pending, dead, wake_key, now, events)
  if s.outcome == 'skipped' then
    if s.state ~= 'waiting' then
      return s.state
    end
    redis.call('ZREM', waiting, s.id)
    redis.call('DEL', s.row)
    event_add(events, 'deleted', s.id, s.attempts, 'state', 'waiting')
    notify_awaited(s.awaited, 'skipped', s.id)
    return 'skipped'
  end
  if s.reopen then
    flow_reopen(s, waiting, dead, now)
  end
  if s.outcome == 'reopen' then
    return s.state
  end
  redis.call('HSETNX', s.row, 'child:' .. s.child, s.outcome)
  if FLOW_FATAL[s.outcome] then
    if s.state == 'waiting' then
      redis.call('ZREM', waiting, s.id)
      redis.call('ZADD', dead, now, s.id)
      local reason = 'child ' .. s.child .. ' ' .. FLOW_FATAL[s.outcome]
      redis.call('HSET', s.row, 'state', 'dead', 'dead_at', now, 'last_error', reason)
      event_add(events, 'dead', s.id, s.attempts, 'state', 'dead', 'error', reason)
      notify_awaited(s.awaited, 'dead', s.id)
      if s.up then
        -- dead-lettered by its child, the parent settles its own parent as a dead child does
        redis.call('ZADD', s.up.outbox, now, flow_record(flow_outcome('dead', s.up.policy), s.up.queue, s.up.id, s.id,
          s.up.round))
      end
    end
    return 'dead'
  end
  local left = s.left - 1
  redis.call('HSET', s.row, 'children_left', left)
  if left > 0 or s.state == 'dead' then
    return s.state
  end
  redis.call('ZREM', waiting, s.id)
  to_pending(pending, s.row, s.id, s.priority, now)
  wake(wake_key, wake_ok(wake_key))
  event_add(events, 'promoted', s.id, s.attempts)
  return 'pending'
end

local function flow_plan(row, id, outcome, declared, outbox_only)
  local f = redis.pcall('HMGET', row, 'flow_parent_queue', 'flow_parent_id', 'flow_policy', 'flow_local',
    'flow_round')
  if f.err or not f[1] or not f[2] then
    return nil
  end
  local base = string.sub(row, 1, #row - #id - 4)
  local queue = string.match(base, '{([^}]*)}') or ''
  local plan = {outcome = flow_outcome(outcome, f[3]), policy = f[3], parent_queue = f[1], parent_id = f[2],
    child = queue .. '/' .. id, child_id = id, round = int(f[5]) or 0}
  local outbox = base .. 'outbox'
  if f[4] == '1' and not outbox_only then
    plan.parent_row = base .. 'job:' .. f[2]
    plan.waiting, plan.pending, plan.dead, plan.wake = base .. 'waiting', base .. 'pending', base .. 'dead',
      base .. 'wake'
    if not (declared[plan.parent_row] and declared[plan.waiting] and declared[plan.pending]
        and declared[plan.dead] and declared[plan.wake] and declared[outbox]) then
      return false, {0, 'FLOW_KEYS', f[2]}
    end
    require_zset(plan.waiting)
    require_zset(plan.pending)
    require_zset(plan.dead)
    plan.settle = flow_check(plan.waiting, plan.dead, plan.parent_row, f[2], plan.child, plan.outcome, plan.round,
      declared)
    return plan
  end
  if not declared[outbox] then
    return false, {0, 'FLOW_KEYS', ''}
  end
  require_zset(outbox)
  plan.outbox = outbox
  return plan
end

local function flow_write(plan, now, events)
  if not plan then
    return
  end
  if plan.outbox then
    redis.call('ZADD', plan.outbox, now, flow_record(plan.outcome, plan.parent_queue, plan.parent_id, plan.child_id,
      plan.round))
  elseif plan.settle then
    flow_settle(plan.settle, plan.waiting, plan.pending, plan.dead, plan.wake, now, events)
  end
end

local function flow_recast(plan, outcome)
  if plan then
    plan.outcome = flow_outcome(outcome, plan.policy)
    if plan.settle then
      plan.settle.outcome = plan.outcome
    end
  end
  return plan
end

local function flow_admin_plan(row, id, state, outcome, declared)
  local f = redis.call('HMGET', row, 'flow_parent_queue', 'flow_parent_id', 'flow_policy', 'flow_children',
    'flow_round')
  local records = {}
  if f[1] and f[2] and (state == 'pending' or state == 'schedule' or state == 'waiting') then
    records[1] = flow_record(flow_outcome(outcome, f[3]), f[1], f[2], id, int(f[5]))
  end
  if state == 'waiting' and f[4] then
    for ref in string.gmatch(f[4], '%S+') do
      local queue, child = string.match(ref, '^([^/]+)/(.+)$')
      if queue and redis.call('HEXISTS', row, 'child:' .. ref) == 0 then
        records[#records + 1] = 'cancel ' .. queue .. ' ' .. child .. ' ' .. id
      end
    end
  end
  if #records == 0 then
    return nil
  end
  local base = string.sub(row, 1, #row - #id - 4)
  local outbox = base .. 'outbox'
  if not declared[outbox] then
    return false, {0, 'FLOW_KEYS', ''}
  end
  require_zset(outbox)
  return {outbox = outbox, records = records}
end

local function flow_admin_write(plan, now)
  if not plan then
    return
  end
  for _, record in ipairs(plan.records) do
    redis.call('ZADD', plan.outbox, now, record)
  end
end

local function flow_admin_locations(locations, declared)
  local waiting = string.sub(locations.pending, 1, #locations.pending - #'pending') .. 'waiting'
  if declared[waiting] then
    locations.waiting = waiting
  end
end
