-- include batch: a batch of jobs with callbacks, a flow node of its own (docs/flows.md#batches).
--
-- The batch's row emq:{q}:batch:<id> (a HASH on its home queue's slot) lives in emq:{q}:batches
-- while it is open or sealed; fields 'state' (open, sealed, finished), 'total', 'completed', 'dead',
-- 'created_at', per callback 'on_success', 'on_complete', 'on_death' = '<queue>/<id>', and per job
-- that has finished 'child:<queue>/<id>' = its outcome, written with HSETNX so a job is counted at
-- most once. A job of a batch is a child of a flow whose parent is the batch, always through the
-- outbox and the relay (its row has no 'flow_local'), so flow_apply.lua counts it here.
--
-- A callback is a parent of a flow, written to waiting before the batch, whose one child is the
-- batch ('<home queue>/<batch id>'). The batch fires a callback with a record
-- '<verb> <callback queue> <callback id> <batch id>' in its home queue's outbox, which the relay
-- applies like any other: 'completed' moves the callback to pending, 'skipped' retires it (its row
-- deleted, out of waiting: a success callback after a death, a death callback when none died).
-- A finished batch leaves emq:{q}:batches; its row is kept 24 hours (its status), then expires.
-- Each callback is fired once: the death callback behind HSETNX 'fired:death', the others when the
-- batch moves to 'finished', which happens once. A fired callback's field 'fired:<kind>' names the
-- verb.
--
-- batch_check(row, child, outcome)  read only: nil when the row is not a batch that is open or
--     sealed, or has the child already; else a settle plan
-- batch_settle(b, id, outbox, batches, now)  the child counted, the death callback fired on the first
--     dead child, the batch finished when it is sealed and every job has finished
-- batch_finish(row, id, outbox, batches, dead, now)  fire the callbacks of a finished batch
--- @include "keys"
--- @include "int"

-- a finished batch's row is kept this long, for its status, then expires
local BATCH_KEPT_MS = 86400000

local function batch_fire(row, id, outbox, kind, verb, now)
  local target = redis.call('HGET', row, 'on_' .. kind)
  if not target then
    return
  end
  if redis.call('HSETNX', row, 'fired:' .. kind, verb) == 0 then
    return
  end
  local slash = string.find(target, '/', 1, true)
  redis.call('ZADD', outbox, now, verb .. ' ' .. string.sub(target, 1, slash - 1) .. ' '
    .. string.sub(target, slash + 1) .. ' ' .. id)
end

local function batch_finish(row, id, outbox, batches, dead, now)
  if dead == 0 then
    batch_fire(row, id, outbox, 'success', 'completed', now)
    batch_fire(row, id, outbox, 'death', 'skipped', now)
  else
    batch_fire(row, id, outbox, 'success', 'skipped', now)
  end
  batch_fire(row, id, outbox, 'complete', 'completed', now)
  redis.call('HSET', row, 'state', 'finished', 'finished_at', now)
  redis.call('ZREM', batches, id)
  redis.call('PEXPIRE', row, BATCH_KEPT_MS)
end

local function batch_check(row, child, outcome)
  local b = redis.pcall('HMGET', row, 'state', 'total', 'completed', 'dead', 'child:' .. child)
  if b.err or (b[1] ~= 'open' and b[1] ~= 'sealed') or b[5] then
    return nil
  end
  local total, completed, dead = int(b[2]), int(b[3]), int(b[4])
  if not (total and completed and dead) then
    return nil
  end
  return {row = row, child = child, outcome = outcome, sealed = b[1] == 'sealed', total = total,
    completed = completed, dead = dead}
end

local function batch_settle(b, id, outbox, batches, now)
  redis.call('HSETNX', b.row, 'child:' .. b.child, b.outcome)
  if b.outcome == 'completed' then
    b.completed = b.completed + 1
    redis.call('HINCRBY', b.row, 'completed', 1)
  else
    b.dead = b.dead + 1
    redis.call('HINCRBY', b.row, 'dead', 1)
    batch_fire(b.row, id, outbox, 'death', 'completed', now)
  end
  if b.sealed and b.completed + b.dead >= b.total then
    batch_finish(b.row, id, outbox, batches, b.dead, now)
    return 'finished'
  end
  return b.sealed and 'sealed' or 'open'
end
