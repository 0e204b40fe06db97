-- enqueue: new jobs -> pending (or -> schedule when delayed), rows written in the same move.
--
-- Validate, then write: every argument is checked and every row key is checked to be free before
-- the first write, so a refused call writes nothing. The first write is an HSET, which a server at
-- maxmemory refuses: a full server takes no new work.
--
-- KEYS[1]     emq:{q}:pending   ZSET, score -priority (0 by default)
-- KEYS[2]     emq:{q}:schedule  ZSET, score run-at (ms)
-- KEYS[3]     emq:{q}:metrics   HASH, field 'enqueued'
-- KEYS[4]     emq:{q}:wake      LIST of wake-up tokens
-- KEYS[5..4+N] emq:{q}:job:<id>  HASH, one row per job, in ARGV order
-- with a lane (ARGV[6] not ''), after the rows:
-- KEYS[5+N]   emq:{q}:lane:<lane>:pending  ZSET, the lane's pending location (instead of KEYS[1])
-- KEYS[6+N]   emq:{q}:lanes     ZSET, the ring of lanes with ready work
-- ARGV[1]     max_attempts (>= 1)
-- ARGV[2]     priority (integer, higher runs sooner)
-- ARGV[3]     delay in ms from server time (>= 0)
-- ARGV[4]     absolute run-at in epoch ms, or '' for none
-- ARGV[5]     E, the number of extra row field pairs
-- ARGV[6]     lane key, or '' for none (kept on the row as 'lane'; a delayed job keeps it in schedule
--             and promote.lua moves it to its lane)
-- ARGV[7..6+2E]  extra field, value pairs (e.g. trace headers)
-- then        id, payload per job
-- returns     {now, state, count}; errors (nothing written): EMQARG a malformed argument,
--             EMQDUP a row already exists, EMQKEYTYPE a location is not a sorted set
--- @include "clock"
--- @include "int"
--- @include "keys"
--- @include "wake"
--- @include "lanes"

-- validate
local max_attempts = arg_int(1, 1)
local priority = arg_int(2, nil)
local delay = arg_int(3, 0)
local run_at_arg = nil
if ARGV[4] ~= '' then
  run_at_arg = arg_int(4, 0)
end
local extras = arg_int(5, 0)
local lane = ARGV[6]
if lane ~= '' and (#lane > 64 or not string.match(lane, '^[A-Za-z0-9._-]+$')) then
  error('EMQARG lane key ' .. lane .. ' must be 1-64 characters of [A-Za-z0-9._-]; nothing was written', 0)
end
local lane_keys = (lane ~= '') and 2 or 0
local first = 7 + 2 * extras
local count = (#ARGV - first + 1) / 2
if count < 1 or count ~= math.floor(count) or #KEYS ~= 4 + count + lane_keys then
  return redis.error_reply('EMQARG ' .. #ARGV .. ' arguments and ' .. #KEYS .. ' keys do not describe '
    .. extras .. ' extra fields and one row key, id and payload per job')
end
local pending = KEYS[1]
if lane ~= '' then
  pending = KEYS[5 + count]
  require_zset(KEYS[6 + count])
end
for i = 1, count do
  if redis.call('EXISTS', KEYS[4 + i]) == 1 then
    return redis.error_reply('EMQDUP job row already exists: ' .. KEYS[4 + i])
  end
end

-- compute
local now = now_ms()
local run_at = run_at_arg or (now + delay)
local state = 'pending'
if run_at > now then
  state = 'schedule'
end
require_zset((state == 'pending') and pending or KEYS[2])
local counted = counter_ok(KEYS[3], 'enqueued')
local wakeable = (state == 'pending') and wake_ok(KEYS[4])

-- write
for i = 1, count do
  local id = ARGV[first + 2 * (i - 1)]
  local row = KEYS[4 + i]
  redis.call('HSET', row, 'state', state, 'attempts', 0, 'max_attempts', max_attempts,
    'payload', ARGV[first + 2 * (i - 1) + 1], 'enqueued_at', now)
  if priority ~= 0 then
    redis.call('HSET', row, 'priority', priority)
  end
  for e = 0, extras - 1 do
    redis.call('HSET', row, ARGV[7 + 2 * e], ARGV[8 + 2 * e])
  end
  if lane ~= '' then
    redis.call('HSET', row, 'lane', lane)
  end
  if state == 'pending' then
    redis.call('ZADD', pending, -priority, id)
  else
    redis.call('HSET', row, 'run_at', run_at)
    redis.call('ZADD', KEYS[2], run_at, id)
  end
end

if lane ~= '' and state == 'pending' then
  to_ring(KEYS[6 + count], lane)
end
if counted then
  redis.call('HINCRBY', KEYS[3], 'enqueued', count)
end
wake(KEYS[4], wakeable)
return {now, state, count}
