-- flow_ack: the relay's second step, on the child's slot: the outbox record flow_apply.lua applied
-- on the parent's slot leaves the outbox. Run only after that step, so a relay that dies between the
-- two leaves the record to be applied again (which changes nothing) and removed.
--
-- KEYS[1]  emq:{q}:outbox   ZSET, records '<outcome> <parent queue> <parent id> <child id>'
-- ARGV[1]  the record
-- returns  1 removed, 0 it was gone already
--- @include "keys"

local K = {outbox = KEYS[1]}
require_zset(K.outbox)
return redis.call('ZREM', K.outbox, ARGV[1])
