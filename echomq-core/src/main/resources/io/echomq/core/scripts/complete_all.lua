-- complete_all: active -> done for several jobs of a queue in one call, each fenced on its own, for a
-- queue that keeps no completed history (complete.lua does the retained case and any job this script
-- leaves to it). The rows are retired; the completed counter, the per-minute series and the wake-up
-- are written once for the whole batch, which is what makes this cheaper than one complete.lua call
-- per job.
--
-- Validate, then write: every job is fenced (fence.lua), its unique key and cancel mark read, before
-- the first write. A job whose row names a unique key is left as it is and answered UNIQUE_KEY (the
-- caller completes it with complete.lua, declaring the key); a job whose cancel was asked for is
-- retired as cancelled (cancel.lua), as complete.lua does.
--
-- KEYS[1]     emq:{q}:active     ZSET
-- KEYS[2]     emq:{q}:metrics    HASH, field 'completed'
-- KEYS[3]     emq:{q}:minutes    HASH, per-minute series (minutes.lua), field '<minute>:completed'
-- KEYS[4]     emq:{q}:wake       LIST, one token per completed job (at most 16) pushed only while the
--             throttled marker is set
-- KEYS[5]     emq:{q}:throttled  STRING, set by claim.lua (limits.lua)
-- KEYS[5+i]   emq:{q}:job:<id>   HASH, the row of the i-th job
-- KEYS[5+n+j] [result] emq:{q}:result:<id> STRING, the key of the j-th result (result.lua), n jobs
-- KEYS[last-1], KEYS[last]  [notify] optional, after every other key: emq:{q}:waiters ZSET and
--             emq:{q}:done (a channel): each completed (or cancelled) id that is awaited leaves waiters
--             and '<outcome> <id>' is published (notify.lua)
-- ARGV[o+2i-1]  the i-th id (o: 0, or 3 + 2r with results)
-- ARGV[o+2i]  its token (the attempts value the claim returned)
-- ARGV[1..3+2r] [results] optional, first: RESULT_TAG, r (how many of the jobs have a result), the
--             results' TTL in ms, then r pairs: the job's index i (1..n), its result (the converter's
--             text); each is SET PX in its key in the same move as the job's completion
-- [events]  optional, last: the stream emq:{q}:events declared after every other key, ARGV ending
--           with EVENTS_TAG, N (events.lua): adds 'completed' (field size) or 'cancelled' per job, in the same move
-- returns     one entry per job, in order: {1} applied, {0, code, detail} stale (the codes of
--             complete.lua: DONE, a fence.lua code, CANCELLED) or {0, 'UNIQUE_KEY', name} or, for a
--             child of a flow (flow.lua), {0, 'FLOW_KEYS', ''} (nothing written for that job); errors (nothing written): EMQARG keys and arguments that do not
--             match, or an id given twice
--- @include "clock"
--- @include "fence"
--- @include "keys"
--- @include "minutes"
--- @include "wake"
--- @include "cancel"
--- @include "unique"
--- @include "result"
--- @include "notify"
--- @include "events"

local events = events_take(KEYS)
local K = {active = KEYS[1], metrics = KEYS[2], minutes = KEYS[3], wake = KEYS[4], throttled = KEYS[5]}
-- [results] the head block, read before the jobs
local o, results, result_ttl_ms = 0, 0, nil
if ARGV[1] == RESULT_TAG then
  results, result_ttl_ms = arg_int(2, 1), result_ttl(3)
  o = 3 + 2 * results
end
local count = (#ARGV - o) / 2
local extra = #KEYS - (5 + count + results)
if count < 1 or count ~= math.floor(count) or (extra ~= 0 and extra ~= 2) then
  error('EMQARG ' .. #ARGV .. ' arguments and ' .. #KEYS .. ' keys do not describe an id and token per row key'
    .. (results > 0 and (' and ' .. results .. ' results with their keys') or '') .. '; nothing was written', 0)
end
local job_rows = key_list(KEYS, 6, 5 + count)
local result_of = {}
local declared = key_set(KEYS, 5 + count + 1)
local waiters, channel = nil, nil
if extra == 2 then
  waiters, channel = notify_keys(declared, job_rows[1], ARGV[o + 1])
end
if results > 0 then
  for j = 1, results do
    local i = arg_int(2 + 2 * j, 1)
    if i > count or result_of[i] then
      error('EMQARG result ' .. j .. ' names job ' .. i .. ' of ' .. count .. (result_of[i] and ' twice' or '')
        .. '; nothing was written', 0)
    end
    result_of[i] = {result_key(declared, job_rows[i], ARGV[o + 2 * i - 1]), ARGV[3 + 2 * j]}
  end
end

-- validate: one HMGET per row reads the schema's fields, the unique key and the cancel mark
local FIELDS = row_fields_and({'unique', 'unique_mode', 'cancel_requested_at', 'flow_parent_id'})
local decided = {}
local awaited = {}
local seen = {}
local completing = 0
local none = {}
for i = 1, count do
  local id, row = ARGV[o + 2 * i - 1], job_rows[i]
  if seen[id] then
    error('EMQARG id ' .. id .. ' is given twice; nothing was written', 0)
  end
  seen[id] = true
  local f, stale = fence(K.active, row, id, ARGV[o + 2 * i], FIELDS)
  if stale then
    if stale[2] == 'NOT_ACTIVE' then
      if redis.call('EXISTS', row) == 0 then
        stale = {0, 'DONE', 'row retired'}
      elseif redis.pcall('HGET', row, 'state') == 'completed' then
        stale = {0, 'DONE', 'completed'}
      end
    end
    decided[i] = stale
  else
    local unique, unique_name = unique_releasable_of(row, id, none, f[8], f[9])
    if unique == false then
      decided[i] = {0, 'UNIQUE_KEY', unique_name}
    elseif f[11] then
      -- [flow] a child of a flow is left to complete.lua, which settles its parent
      decided[i] = {0, 'FLOW_KEYS', ''}
    elseif f[10] then
      decided[i] = 'cancel'
    else
      decided[i] = 'complete'
      completing = completing + 1
    end
    if decided[i] == 'cancel' or decided[i] == 'complete' then
      awaited[i] = notify_waiting(waiters, id)
    end
  end
end
local counted = completing > 0 and counter_ok(K.metrics, 'completed')
local wakeable = completing > 0 and redis.call('EXISTS', K.throttled) == 1 and wake_ok(K.wake)

-- write: the completed ids leave active in one ZREM, their rows go in one DEL
local replies = {}
local ids, rows = {}, {}
for i = 1, count do
  local d = decided[i]
  if d == 'complete' then
    ids[#ids + 1] = ARGV[o + 2 * i - 1]
    rows[#rows + 1] = job_rows[i]
    replies[i] = {1}
  elseif d == 'cancel' then
    replies[i] = retire_cancelled(K.active, job_rows[i], ARGV[o + 2 * i - 1], K.metrics)
    event_add(events, 'cancelled', ARGV[o + 2 * i - 1], ARGV[o + 2 * i])
  else
    replies[i] = d
  end
end
if completing > 0 then
  redis.call('ZREM', K.active, unpack(ids))
  redis.call('DEL', unpack(rows))
  for i = 1, count do
    if result_of[i] and decided[i] == 'complete' then
      result_store(result_of[i][1], result_of[i][2], result_ttl_ms)
    end
  end
  for i = 1, count do
    if decided[i] == 'complete' then
      event_add(events, 'completed', ARGV[o + 2 * i - 1], ARGV[o + 2 * i], 'size',
        result_of[i] and #result_of[i][2] or 0)
    end
  end
  if counted then
    redis.call('HINCRBY', K.metrics, 'completed', completing)
  end
  count_minute(K.minutes, now_ms(), 'completed', completing)
  -- one token per freed slot: a cap held claims back on every node
  wake_n(K.wake, wakeable, completing)
end
for i = 1, count do
  if awaited[i] then
    notify(waiters, channel, (decided[i] == 'complete') and 'completed' or 'cancelled', ARGV[o + 2 * i - 1])
  end
end
return replies
