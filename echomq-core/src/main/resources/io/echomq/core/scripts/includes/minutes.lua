-- include minutes: count_minute(key, now, kind[, n]) counts one event (or n) of a kind ('completed', 'failed')
-- in the queue's per-minute series, field '<minute>:<kind>' of emq:{q}:minutes (minute = epoch ms
-- / 60000). The first event of a kind in a new minute also drops the fields older than
-- MINUTES_KEPT minutes, so the hash stays at most 2 * (MINUTES_KEPT + 1) fields and that sweep
-- runs at most twice a minute. Every call is pcall'd: a key that is not a hash (the audit reports
-- it) costs the series, never the transition.
local MINUTES_KEPT = 120

local function count_minute(key, now, kind, by)
  by = by or 1
  local minute = math.floor(now / 60000)
  local n = redis.pcall('HINCRBY', key, minute .. ':' .. kind, by)
  if n ~= by then
    return
  end
  local fields = redis.pcall('HKEYS', key)
  if type(fields) ~= 'table' or fields.err then
    return
  end
  local oldest = minute - MINUTES_KEPT
  local old = {}
  for _, field in ipairs(fields) do
    local at = tonumber(string.match(field, '^(%d+):'))
    if not at or at <= oldest then
      old[#old + 1] = field
    end
  end
  if #old > 0 then
    redis.pcall('HDEL', key, unpack(old))
  end
end
