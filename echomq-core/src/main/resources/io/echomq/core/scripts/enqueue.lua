-- enqueue: new jobs -> pending (or -> schedule when delayed), rows written in the same move.
--
-- KEYS[1]     emq:{q}:pending   ZSET, score -priority (0 by default)
-- KEYS[2]     emq:{q}:schedule  ZSET, score run-at (ms)
-- KEYS[3]     emq:{q}:metrics   HASH, field 'enqueued'
-- KEYS[4]     emq:{q}:wake      LIST of wake-up tokens
-- KEYS[5..]   emq:{q}:job:<id>  HASH, one row per job, in ARGV order
-- ARGV[1]     max_attempts (>= 1)
-- ARGV[2]     priority (integer, higher runs sooner)
-- ARGV[3]     delay in ms from server time (>= 0)
-- ARGV[4]     absolute run-at in epoch ms, or '' for none
-- ARGV[5]     E, the number of extra row field pairs
-- ARGV[6..5+2E]  extra field, value pairs (e.g. trace headers)
-- then        id, payload per job
-- returns     {now, state, count} or an EMQDUP error when a row already exists (nothing written)

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local max_attempts = ARGV[1]
local priority = tonumber(ARGV[2])
local run_at = now + tonumber(ARGV[3])
if ARGV[4] ~= '' then
  run_at = tonumber(ARGV[4])
end
local extras = tonumber(ARGV[5])
local first = 6 + 2 * extras
local count = (#ARGV - first + 1) / 2

for i = 1, count do
  if redis.call('EXISTS', KEYS[4 + i]) == 1 then
    return redis.error_reply('EMQDUP job row already exists: ' .. KEYS[4 + i])
  end
end

local state = 'pending'
if run_at > now then
  state = 'schedule'
end

for i = 1, count do
  local id = ARGV[first + 2 * (i - 1)]
  local row = KEYS[4 + i]
  redis.call('HSET', row, 'state', state, 'attempts', 0, 'max_attempts', max_attempts,
    'payload', ARGV[first + 2 * (i - 1) + 1], 'enqueued_at', now)
  if priority ~= 0 then
    redis.call('HSET', row, 'priority', priority)
  end
  for e = 0, extras - 1 do
    redis.call('HSET', row, ARGV[6 + 2 * e], ARGV[7 + 2 * e])
  end
  if state == 'pending' then
    redis.call('ZADD', KEYS[1], -priority, id)
  else
    redis.call('HSET', row, 'run_at', run_at)
    redis.call('ZADD', KEYS[2], run_at, id)
  end
end

redis.call('HINCRBY', KEYS[3], 'enqueued', count)
if state == 'pending' then
  redis.call('LPUSH', KEYS[4], 1)
  redis.call('LTRIM', KEYS[4], 0, 15)
end
return {now, state, count}
