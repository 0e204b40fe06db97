-- events_read: one read of a queue's event stream through a listener's consumer group, returned
-- with the group's last-delivered id as it stood just before the read.
--
-- Nothing runs between the two, so the reader knows exactly which entries the group never got:
-- the stream numbers its entries 1, 2, 3, ... with no holes and is trimmed only from its start, so
-- when the first new entry returned is not the one after the last-delivered id, the entries
-- between were trimmed before any consumer of the group got them. Entries another consumer of the
-- group (another copy of the listener) took advanced the last-delivered id and are never counted.
-- Reading the consumer's own pending entries ('0') returns a pending entry the stream no longer
-- holds (trimmed before it was acknowledged) with no fields.
--
-- KEYS[1]  emq:{q}:events   STREAM
-- ARGV[1]  the consumer group
-- ARGV[2]  the consumer
-- ARGV[3]  how many entries at most
-- ARGV[4]  '>' for entries no consumer of the group got yet, '0' for the consumer's own pending
-- returns  {last-delivered id, then per entry: id, n, field 1, value 1, ..., field n, value n};
--          n is -1 for a pending entry the stream no longer holds. Errors: NOGROUP when the stream
--          or the group does not exist (nothing read)
local K = {events = KEYS[1]}
if redis.call('EXISTS', K.events) == 0 then
  return redis.error_reply('NOGROUP no stream ' .. K.events)
end
local delivered = nil
for _, group in ipairs(redis.call('XINFO', 'GROUPS', K.events)) do
  local fields = {}
  for i = 1, #group, 2 do
    fields[group[i]] = group[i + 1]
  end
  if fields['name'] == ARGV[1] then
    delivered = fields['last-delivered-id']
  end
end
if delivered == nil then
  return redis.error_reply('NOGROUP no group ' .. ARGV[1] .. ' on ' .. K.events)
end
local out = { delivered }
local reply = redis.call('XREADGROUP', 'GROUP', ARGV[1], ARGV[2], 'COUNT', ARGV[3], 'STREAMS', K.events, ARGV[4])
if reply then
  for _, entry in ipairs(reply[1][2]) do
    out[#out + 1] = entry[1]
    local body = entry[2]
    if body then
      out[#out + 1] = tostring(#body / 2)
      for i = 1, #body do
        out[#out + 1] = body[i]
      end
    else
      out[#out + 1] = '-1'
    end
  end
end
return out
