-- events_claim: take over the entries of a listener's consumer group that other consumers (copies
-- of the application that are gone, or stopped under another name) took and left unacknowledged
-- for at least a given time, so that this consumer reads them as its own pending entries.
--
-- Only the ownership moves (JUSTID): the reader then reads them with events_read.lua ('0'), where
-- an entry the stream trimmed in the meantime comes back with no fields and counts as a gap.
-- Redis 7 and Valkey drop such entries from the pending list here instead, and name them.
--
-- KEYS[1]  emq:{q}:events   STREAM
-- ARGV[1]  the consumer group
-- ARGV[2]  the consumer taking them over
-- ARGV[3]  how long (ms) an entry must have waited since it was delivered
-- ARGV[4]  how many entries at most per step
-- returns  {taken, then the ids of the entries taken that the stream no longer holds (Redis 7 and
--          Valkey: dropped from the pending list)}. Errors: NOGROUP when the group does not exist
local K = {events = KEYS[1]}
local out = { 0 }
local cursor = '0-0'
repeat
  local reply = redis.call('XAUTOCLAIM', K.events, ARGV[1], ARGV[2], ARGV[3], cursor, 'COUNT', ARGV[4], 'JUSTID')
  cursor = reply[1]
  out[1] = out[1] + #reply[2]
  if reply[3] then
    for _, id in ipairs(reply[3]) do
      out[#out + 1] = id
    end
  end
until cursor == '0-0'
out[1] = tostring(out[1])
return out
