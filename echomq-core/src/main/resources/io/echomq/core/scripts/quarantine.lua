-- quarantine: members of a location that no transition can move -> emq:{q}:quarantine.
--
-- Every other script leaves a member it cannot validate exactly as it is and reports it; the caller
-- pages past it. Moving such members out of the way, so they stop costing each claim, reap and
-- promote a skip, is this transition's job alone. It checks each candidate again, in the same way
-- (row.lua), so a row repaired in the meantime stays where it is:
--   - a member that is not a JOB id, or has no row, or a row that breaks the row schema, or whose
--     state names a location the id is not in, moves to quarantine; its row (when it is a hash)
--     gets state 'quarantine', 'quarantined_from' and 'quarantine_reason' in the same move;
--   - a stray copy (the row is well-formed, its state names another location, and the id is there
--     too) is removed from this location: the job lives on where its state says, untouched.
-- Validate, then write; the first write frees memory (ZREM).
--
-- KEYS[1]     emq:{q}:pending     ZSET
-- KEYS[2]     emq:{q}:active      ZSET
-- KEYS[3]     emq:{q}:schedule    ZSET
-- KEYS[4]     emq:{q}:dead        ZSET
-- KEYS[5]     emq:{q}:quarantine  ZSET, score the time quarantined (server ms)
-- KEYS[6]     emq:{q}:metrics     HASH, fields 'quarantined', 'strays'
-- KEYS[7..]   emq:{q}:job:<id>    HASH, one row per JOB candidate, in ARGV order
-- KEYS[last-1], KEYS[last]  [notify] optional, after the rows: emq:{q}:waiters ZSET and emq:{q}:done
--             (a channel): each JOB candidate quarantined that is awaited leaves waiters and
--             'quarantined <id>' is published (notify.lua)
-- ARGV[1]     the location the candidates are in: pending, active, schedule or dead
-- ARGV[2]     F, the number of candidates that are not JOB ids (they have no row key)
-- ARGV[3..2+F]  those members
-- ARGV[3+F..] JOB candidates, one per row key
-- [events]    optional, last: the stream emq:{q}:events declared after every other key, ARGV ending
--             with EVENTS_TAG, N (events.lua): adds 'quarantined' (fields state: the location it left,
--             error: the reason) per member quarantined, in the same move; a stray copy removed writes none
-- returns     {now, quarantined, strays, {member, reason, ...}} (the members quarantined)
--- @include "clock"
--- @include "int"
--- @include "row"
--- @include "keys"
--- @include "notify"
--- @include "events"

-- validate
local events = events_take(KEYS)
local K = {pending = KEYS[1], active = KEYS[2], schedule = KEYS[3], dead = KEYS[4], quarantine = KEYS[5],
  metrics = KEYS[6]}
local LOCATION_KEYS = {pending = K.pending, active = K.active, schedule = K.schedule, dead = K.dead,
  quarantine = K.quarantine}
local here = ARGV[1]
if here == 'quarantine' or not LOCATION_KEYS[here] then
  return redis.error_reply('EMQARG ARGV[1] must be pending, active, schedule or dead, was ' .. tostring(here))
end
local source = LOCATION_KEYS[here]
local foreign = arg_int(2, 0)
local first = 3 + foreign
local rows_end = 6 + (#ARGV - first + 1)
if first > #ARGV + 1 or (#KEYS ~= rows_end and #KEYS ~= rows_end + 2) then
  return redis.error_reply('EMQARG ' .. (#ARGV - first + 1) .. ' JOB candidates need as many row keys, got '
    .. (#KEYS - 6))
end
local rows = key_list(KEYS, 7, rows_end)
require_zset(K.quarantine)

local moves = {}
local strays = {}
local seen = {}
for i = 3, #ARGV do
  local member = ARGV[i]
  if not seen[member] and redis.call('ZSCORE', source, member) then
    seen[member] = true
    if i < first then
      moves[#moves + 1] = {member, 'not a JOB id', false, false}
    else
      local row = rows[i - first + 1]
      local f, problem = read_row(row)
      problem = problem or field_problem(f)
      if problem then
        moves[#moves + 1] = {member, problem, f and row, true, f and int(f[2])}
      elseif f[1] ~= here then
        local there = LOCATION_KEYS[f[1]]
        if there and redis.call('ZSCORE', there, member) then
          strays[#strays + 1] = member
        else
          moves[#moves + 1] = {member, state_problem(f, here), row, true, f[2]}
        end
      end
    end
  end
end
local count_quarantined = counter_ok(K.metrics, 'quarantined')
local count_strays = counter_ok(K.metrics, 'strays')
local waiters, channel = nil, nil
if rows_end > 6 then
  waiters, channel = notify_keys(key_set(KEYS, rows_end + 1), rows[1], ARGV[first])
end
for _, move in ipairs(moves) do
  move[4] = move[4] and notify_waiting(waiters, move[1])
end

-- compute
local now = now_ms()

-- write
local reported = {}
for _, move in ipairs(moves) do
  redis.call('ZREM', source, move[1])
  redis.call('ZADD', K.quarantine, now, move[1])
  if move[3] then
    redis.call('HSET', move[3], 'state', 'quarantine', 'quarantined_from', here, 'quarantine_reason', move[2])
  end
  if move[4] then
    notify(waiters, channel, 'quarantined', move[1])
  end
  event_add(events, 'quarantined', move[1], move[5], 'state', here, 'error', move[2])
  reported[#reported + 1] = move[1]
  reported[#reported + 1] = move[2]
end
for _, member in ipairs(strays) do
  redis.call('ZREM', source, member)
end
if #moves > 0 and count_quarantined then
  redis.call('HINCRBY', K.metrics, 'quarantined', #moves)
end
if #strays > 0 and count_strays then
  redis.call('HINCRBY', K.metrics, 'strays', #strays)
end
return {now, #moves, #strays, reported}
