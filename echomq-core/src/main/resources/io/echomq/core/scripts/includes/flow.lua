-- include flow: a parent job that waits in emq:{q}:waiting until its children have finished
-- (docs/flows.md).
--
-- A child's row names its parent: 'flow_parent_queue', 'flow_parent_id', 'flow_policy' (fail,
-- ignore or remove: what a dead child does to its parent) and 'flow_local' ('1' when the parent is in
-- the child's own queue, so on its slot). The parent's row has state 'waiting', 'children_left' and,
-- per child that has finished, a field 'child:<queue>/<id>' with the child's outcome (completed,
-- failed, removed or dead): written with HSETNX, so a child is counted at most once.
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
--     outbox and the relay too
-- flow_write(plan, now)  the writes of the plan
-- flow_check(waiting, parent_row, parent_id, child, outcome)  the parent's side, read only: nil
--     when the parent is not waiting (gone, dead, already released: nothing to do) or has the
--     child already; else a settle plan
-- flow_settle(s, waiting, pending, dead, wake, now)  the parent's side, the writes: the child
--     counted, the parent to pending when it was the last, or to dead when a child died under
--     policy 'fail'; or, for 'skipped' (a batch's callback it will never call for,
--     includes/batch.lua), the parent retired: out of waiting, its row deleted; returns the
--     parent's new state
--- @include "keys"
--- @include "int"
--- @include "pending"
--- @include "wake"

local function flow_outcome(outcome, policy)
  if outcome ~= 'dead' then
    return outcome
  end
  if policy == 'ignore' then
    return 'failed'
  end
  if policy == 'remove' then
    return 'removed'
  end
  return 'dead'
end

local function flow_check(waiting, parent_row, parent_id, child, outcome)
  local p = redis.pcall('HMGET', parent_row, 'state', 'children_left', 'priority', 'child:' .. child)
  if p.err or p[1] ~= 'waiting' or not redis.call('ZSCORE', waiting, parent_id) or p[4] then
    return nil
  end
  local left = int(p[2])
  if not left then
    return nil
  end
  return {row = parent_row, id = parent_id, child = child, outcome = outcome, left = left,
    priority = int(p[3]) or 0}
end

local function flow_settle(s, waiting, pending, dead, wake_key, now)
  if s.outcome == 'skipped' then
    redis.call('ZREM', waiting, s.id)
    redis.call('DEL', s.row)
    return 'skipped'
  end
  redis.call('HSETNX', s.row, 'child:' .. s.child, s.outcome)
  if s.outcome == 'dead' then
    redis.call('ZREM', waiting, s.id)
    redis.call('ZADD', dead, now, s.id)
    redis.call('HSET', s.row, 'state', 'dead', 'dead_at', now, 'last_error', 'child ' .. s.child .. ' is dead')
    return 'dead'
  end
  local left = s.left - 1
  redis.call('HSET', s.row, 'children_left', left)
  if left > 0 then
    return 'waiting'
  end
  redis.call('ZREM', waiting, s.id)
  to_pending(pending, s.row, s.id, s.priority, now)
  wake(wake_key, wake_ok(wake_key))
  return 'pending'
end

local function flow_plan(row, id, outcome, declared, outbox_only)
  local f = redis.pcall('HMGET', row, 'flow_parent_queue', 'flow_parent_id', 'flow_policy', 'flow_local')
  if f.err or not f[1] or not f[2] then
    return nil
  end
  local base = string.sub(row, 1, #row - #id - 4)
  local queue = string.match(base, '{([^}]*)}') or ''
  local plan = {outcome = flow_outcome(outcome, f[3]), parent_queue = f[1], parent_id = f[2],
    child = queue .. '/' .. id, child_id = id}
  local outbox = base .. 'outbox'
  if f[4] == '1' and not outbox_only then
    plan.parent_row = base .. 'job:' .. f[2]
    plan.waiting, plan.pending, plan.dead, plan.wake = base .. 'waiting', base .. 'pending', base .. 'dead',
      base .. 'wake'
    if not (declared[plan.parent_row] and declared[plan.waiting] and declared[plan.pending]
        and declared[plan.dead] and declared[plan.wake]) then
      return false, {0, 'FLOW_KEYS', f[2]}
    end
    require_zset(plan.waiting)
    require_zset(plan.pending)
    require_zset(plan.dead)
    plan.settle = flow_check(plan.waiting, plan.parent_row, f[2], plan.child, plan.outcome)
    return plan
  end
  if not declared[outbox] then
    return false, {0, 'FLOW_KEYS', ''}
  end
  require_zset(outbox)
  plan.outbox = outbox
  return plan
end

local function flow_write(plan, now)
  if not plan then
    return
  end
  if plan.outbox then
    redis.call('ZADD', plan.outbox, now,
      plan.outcome .. ' ' .. plan.parent_queue .. ' ' .. plan.parent_id .. ' ' .. plan.child_id)
  elseif plan.settle then
    flow_settle(plan.settle, plan.waiting, plan.pending, plan.dead, plan.wake, now)
  end
end
