-- format: read a queue's stored format, and record it when the queue has none. A queue written
-- before formats were recorded (no meta hash, or one without a 'format' field) is in format 1, the
-- layout ARGV[1] names; the first node to use it records that. A stored format is never changed
-- here: the caller compares it with the formats it reads and refuses the queue if it is unknown.
-- Validate, then write.
--
-- KEYS[1]  emq:{q}:meta  HASH, field 'format' (an integer >= 1)
-- ARGV[1]  the format to record when none is stored (an integer >= 1)
-- returns  {'adopted', ARGV[1]}  nothing was stored: ARGV[1] is now
--          {'stored', format}    the stored format, an integer >= 1, nothing written
--          {'malformed', value}  the stored 'format' is not an integer >= 1, nothing written
--- @include "keys"

-- validate
local K = {meta = KEYS[1]}
local record = arg_int(1, 1)
require_type(K.meta, 'hash', 'hash')
local stored = redis.call('HGET', K.meta, 'format')
if stored then
  local format = int(stored)
  if not format or format < 1 then
    return {'malformed', stored}
  end
  return {'stored', stored}
end

-- write
redis.call('HSET', K.meta, 'format', tostring(record))
return {'adopted', tostring(record)}
