-- flow_apply: the relay's first step, on the parent's slot: a child of another slot has finished
-- (its outbox record, flow.lua); count it on its parent at most once (the row's 'child:<child>'
-- field, HSETNX), and move the parent waiting -> pending when it was the last child, or
-- waiting -> dead when it died under policy 'fail'. A parent released, run or gone, or that has the
-- child already, is left as it is: applying a record twice changes nothing; a parent dead by a
-- child (attempts 0) counts it without moving. A child cancelled or deleted before it finished
-- counts as a dead one (outcome 'cancelled' or 'deleted', flow.lua). When the parent is a batch (no
-- job row, a batch row: includes/batch.lua), the child is counted on the batch instead, which may fire
-- its callbacks through the parent queue's outbox; a batch is never re-opened (a 'reopen' record for
-- it changes nothing). The outcome 'skipped' (a callback the batch will never call for) retires a
-- waiting parent: out of waiting, its row deleted.
--
-- Rounds (a replayed child, flow.lua): the parent keeps 'round:<child>', the child's round it
-- counts. A record of an older round changes nothing; one of a newer round (a 'reopen', or the
-- replayed child's outcome when it comes first) first takes the child's old outcome off the parent
-- and moves a parent dead by a child back to waiting (unless another child keeps it dead), then
-- counts the outcome. A parent dead by a child still counts its other children, so it can wait again.
--
-- KEYS[1]  emq:{p}:waiting  ZSET
-- KEYS[2]  emq:{p}:pending  ZSET
-- KEYS[3]  emq:{p}:dead     ZSET
-- KEYS[4]  emq:{p}:wake     LIST
-- KEYS[5]  emq:{p}:job:<parent id> HASH, the parent's row
-- KEYS[6]  emq:{p}:batch:<parent id> HASH, the parent's batch row when it is a batch
-- KEYS[7]  emq:{p}:outbox   ZSET, where a batch fires its callbacks
-- KEYS[8]  emq:{p}:batches  ZSET, the location of open and sealed batches
-- KEYS[9], KEYS[10]  [notify] optional: emq:{p}:waiters ZSET and emq:{p}:done (a channel): a parent
--          this step ends (dead by a child, or a callback skipped) that someone awaits leaves waiters
--          and 'dead <id>' or 'skipped <id>' is published (notify.lua, through flow.lua)
-- ARGV[1]  parent id
-- ARGV[2]  the child, '<queue>/<id>'
-- ARGV[3]  outcome: completed, failed, removed, dead, cancelled, deleted or skipped; or reopen
-- ARGV[4]  the child's round (>= 0), optional: 0
-- [events]  optional, last: the parent queue's stream emq:{p}:events declared after every other key,
--           ARGV ending with EVENTS_TAG, N (events.lua): the parent's 'promoted', 'dead' or 'deleted'
--           (flow.lua's flow_settle), in the same move; a batch's count writes none (no job moved)
-- returns  {1, parent state} applied (a batch: open, sealed or finished), or {0, 'NOT_WAITING'} nothing to do
--- @include "clock"
--- @include "flow"
--- @include "batch"

local events = events_take(KEYS)
local K = {waiting = KEYS[1], pending = KEYS[2], dead = KEYS[3], wake = KEYS[4], row = KEYS[5],
  batch = KEYS[6], outbox = KEYS[7], batches = KEYS[8]}

-- validate
local outcome = ARGV[3]
local OUTCOMES = {completed = true, failed = true, removed = true, dead = true, cancelled = true, deleted = true,
  skipped = true, reopen = true}
if not OUTCOMES[outcome] then
  error('EMQARG outcome must be completed, failed, removed, dead, cancelled, deleted, skipped or reopen, was '
    .. tostring(outcome) .. '; nothing was written', 0)
end
local round = ARGV[4] and arg_int(4, 0) or 0
require_zset(K.waiting)
require_zset(K.pending)
require_zset(K.dead)
if K.batch and redis.call('EXISTS', K.row) == 0 and redis.call('EXISTS', K.batch) == 1 then
  require_zset(K.outbox)
  require_zset(K.batches)
  local b = outcome ~= 'reopen' and batch_check(K.batch, ARGV[2], outcome)
  if not b then
    return {0, 'NOT_WAITING'}
  end
  return {1, batch_settle(b, ARGV[1], K.outbox, K.batches, now_ms())}
end
local declared = {}
for i = 9, #KEYS do
  declared[KEYS[i]] = true
end
local s = flow_check(K.waiting, K.dead, K.row, ARGV[1], ARGV[2], outcome, round, declared)
if not s then
  return {0, 'NOT_WAITING'}
end

-- write
return {1, flow_settle(s, K.waiting, K.pending, K.dead, K.wake, now_ms(), events)}
