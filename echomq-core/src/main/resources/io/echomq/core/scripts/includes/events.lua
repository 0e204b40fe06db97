-- include events: job events other processes hear (docs/events.md). A queue that opts in has one
-- bounded stream, emq:{q}:events (STREAM), written by the transition scripts in the same move as the
-- transition: XADD key MAXLEN ~ N <seq>-0 type <type> id <id> attempts <n> at <ms> [field value]...
--
-- The caller of an opted-in queue declares the stream among the keys after the fixed ones (as
-- unique.lua and result.lua declare theirs) and ends ARGV with EVENTS_TAG and N, the bound. A call
-- without the tag pays one comparison. events_take removes both from the call's keys and ARGV before
-- the script reads them, so the script's own layout of KEYS and ARGV stays what its header says.
--
-- An entry's id is its sequence number: <seq>-0, one more than the newest entry's (1 in a new
-- stream; MAXLEN ~ never trims the newest). So a reader, and a consumer group's last-delivered id,
-- know exactly how many entries were trimmed before they were read, on every server version
-- (XINFO's entries-added needs Redis 7). The time of the transition is the field 'at' (server ms).
--
-- events_take(keys)    nil when the call carries no EVENTS_TAG; else the stream of the queue of the
--                      call's keys (the script passes KEYS: keys[1] is one of the queue's keys),
--                      checked to be declared among them and a stream or absent, and removed from
--                      them; its newest seq read: an EMQARG / EMQKEYTYPE error (nothing written yet)
--                      otherwise. Call it before reading KEYS or ARGV.
-- event_add(events, type, id, attempts, field, value, ...)
--                      XADD one entry (nothing when events is nil)
--- @include "int"
--- @include "clock"

local EVENTS_TAG = '=events'

local function events_take(keys)
  local n = #ARGV
  if n < 2 or ARGV[n - 1] ~= EVENTS_TAG then
    return nil
  end
  local maxlen = arg_int(n, 1)
  local key = string.match(keys[1], '^(.*:)[^:]*$') .. 'events'
  local at = nil
  for i = #keys, 1, -1 do
    if keys[i] == key then
      at = i
      break
    end
  end
  if not at then
    error('EMQARG events need the stream ' .. key .. ' declared; nothing was written', 0)
  end
  local t = redis.call('TYPE', key).ok
  if t ~= 'stream' and t ~= 'none' then
    error('EMQKEYTYPE ' .. key .. ' is a ' .. t .. ', not a stream; nothing was written', 0)
  end
  table.remove(keys, at)
  table.remove(ARGV)
  table.remove(ARGV)
  local seq = 0
  if t == 'stream' then
    local last = redis.call('XREVRANGE', key, '+', '-', 'COUNT', 1)[1]
    if last then
      seq = tonumber(string.match(last[1], '^(%d+)%-')) or 0
    end
  end
  return {key = key, maxlen = maxlen, seq = seq, at = now_ms()}
end

local function event_add(events, kind, id, attempts, ...)
  if not events then
    return
  end
  events.seq = events.seq + 1
  redis.call('XADD', events.key, 'MAXLEN', '~', events.maxlen, string.format('%d-0', events.seq), 'type', kind, 'id', id,
    'attempts', attempts or 0, 'at', events.at, ...)
end
