-- batch_open: a new batch -> emq:{q}:batches, open, with no jobs yet (includes/batch.lua). Its
-- callbacks are written before it (waiting parents whose one child is the batch); its jobs after it,
-- each counted first by batch_add.lua.
--
-- Validate, then write: a batch that exists already, a malformed argument or a location of the wrong
-- type writes nothing.
--
-- KEYS[1]  emq:{q}:batches      ZSET, score time of creation (ms)
-- KEYS[2]  emq:{q}:batch:<id>   HASH, the new batch
-- ARGV[1]  id
-- ARGV[2..] callback pairs: 'success', 'complete' or 'death', then '<queue>/<id>'
-- returns  {now} applied; errors (nothing written): EMQARG (an id that is not a JOB id, or not its
--          batch key's, among them), EMQDUP the batch exists, EMQKEYTYPE
--- @include "clock"
--- @include "keys"

-- validate
local K = {batches = KEYS[1], batch = KEYS[2]}
local fields = {'state', 'open', 'total', 0, 'completed', 0, 'dead', 0}
require_id(ARGV[1], K.batch, 'batch')
if (#ARGV - 1) % 2 ~= 0 then
  error('EMQARG callbacks must come in kind, target pairs; nothing was written', 0)
end
for i = 2, #ARGV, 2 do
  local kind, target = ARGV[i], ARGV[i + 1]
  if (kind ~= 'success' and kind ~= 'complete' and kind ~= 'death') or not string.find(target, '.+/.+') then
    error('EMQARG a callback is success, complete or death with <queue>/<id>, was ' .. kind .. ' '
      .. target .. '; nothing was written', 0)
  end
  fields[#fields + 1] = 'on_' .. kind
  fields[#fields + 1] = target
end
if redis.call('EXISTS', K.batch) == 1 then
  error('EMQDUP ' .. K.batch .. ' exists; nothing was written', 0)
end
require_zset(K.batches)

-- write
local now = now_ms()
fields[#fields + 1] = 'created_at'
fields[#fields + 1] = now
redis.call('HSET', K.batch, unpack(fields))
redis.call('ZADD', K.batches, now, ARGV[1])
return {now}
