-- batch_seal: an open batch -> sealed: it takes no more jobs, and finishes (its callbacks fired,
-- includes/batch.lua) when its last job has finished, here already when every job has.
-- Sealing a sealed or finished batch changes nothing.
--
-- KEYS[1]  emq:{q}:batches      ZSET
-- KEYS[2]  emq:{q}:batch:<id>   HASH
-- KEYS[3]  emq:{q}:outbox       ZSET, where the callbacks' records go
-- ARGV[1]  id
-- returns  {state} the batch's state after it (sealed or finished); errors (nothing written):
--          EMQNOBATCH no such batch, EMQKEYTYPE
--- @include "clock"
--- @include "batch"

-- validate
local K = {batches = KEYS[1], batch = KEYS[2], outbox = KEYS[3]}
local b = redis.pcall('HMGET', K.batch, 'state', 'total', 'completed', 'dead')
if b.err or not b[1] then
  error('EMQNOBATCH ' .. K.batch .. ' is not a batch; nothing was written', 0)
end
if b[1] ~= 'open' then
  return {b[1]}
end
require_zset(K.batches)
require_zset(K.outbox)
local total, completed, dead = int(b[2]) or 0, int(b[3]) or 0, int(b[4]) or 0

-- write
redis.call('HSET', K.batch, 'state', 'sealed')
if completed + dead >= total then
  batch_finish(K.batch, ARGV[1], K.outbox, K.batches, dead, now_ms())
  return {'finished'}
end
return {'sealed'}
