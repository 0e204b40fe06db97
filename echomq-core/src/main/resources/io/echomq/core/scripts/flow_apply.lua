-- flow_apply: the relay's first step, on the parent's slot: a child of another slot has finished
-- (its outbox record, flow.lua); count it on its parent at most once (the row's 'child:<child>'
-- field, HSETNX), and move the parent waiting -> pending when it was the last child, or
-- waiting -> dead when it died under policy 'fail'. A parent that is no longer waiting (gone, dead,
-- already pending) or has the child already is left as it is: applying a record twice changes
-- nothing. A child cancelled or deleted before it finished counts as a dead one (outcome
-- 'cancelled' or 'deleted', flow.lua).
--
-- KEYS[1]  emq:{p}:waiting  ZSET
-- KEYS[2]  emq:{p}:pending  ZSET
-- KEYS[3]  emq:{p}:dead     ZSET
-- KEYS[4]  emq:{p}:wake     LIST
-- KEYS[5]  emq:{p}:job:<parent id> HASH, the parent's row
-- ARGV[1]  parent id
-- ARGV[2]  the child, '<queue>/<id>'
-- ARGV[3]  outcome: completed, failed, removed, dead, cancelled or deleted
-- returns  {1, parent state} applied, or {0, 'NOT_WAITING'} nothing to do
--- @include "clock"
--- @include "flow"

-- validate
local outcome = ARGV[3]
local OUTCOMES = {completed = true, failed = true, removed = true, dead = true, cancelled = true, deleted = true}
if not OUTCOMES[outcome] then
  error('EMQARG outcome must be completed, failed, removed, dead, cancelled or deleted, was ' .. tostring(outcome)
    .. '; nothing was written', 0)
end
require_zset(KEYS[1])
require_zset(KEYS[2])
require_zset(KEYS[3])
local s = flow_check(KEYS[1], KEYS[5], ARGV[1], ARGV[2], outcome)
if not s then
  return {0, 'NOT_WAITING'}
end

-- write
return {1, flow_settle(s, KEYS[1], KEYS[2], KEYS[3], KEYS[4], now_ms())}
