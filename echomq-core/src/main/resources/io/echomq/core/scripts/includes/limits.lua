-- include limits: the queue's cluster-wide flow limits, read before a claim writes anything.
--
-- allowance(active, log, max_active, rate, period, now)
--     how many jobs may start now (a number, math.huge when unlimited), the limit that bounds
--     it ('' when none does) and, when the rate limit bounds it, the server time (ms) at which
--     the window next has room once the claim has taken all it allows (0 otherwise): a claimer
--     held back by the rate sleeps until then, whether it got none or only some of what it
--     asked for:
--   max_active  at most this many ids in active (ZCARD, so expired leases not yet reaped still
--               count: the cap errs on the safe side); 0 for no cap
--   rate        at most this many starts in any window of 'period' ms (a sliding-window log: one
--               member per start in the log ZSET, scored by its server time); 0 for no limit
-- log_starts(log, period, now, members)  records the starts and trims what slid out of the window
-- limits_take(keys, c)
--     the limits an operator stored at run time (set_limits.lua) win over the configured ones the
--     claim's ARGV carries: a caller that declares emq:{q}:limits (HASH) among its keys and ends ARGV
--     with LIMITS_TAG has c.max_active, c.rate and c.period (and c.lane_max_active, c.lane_rate and
--     c.lane_period when c has them) replaced by each stored value that is an integer >= 1. A stored
--     queue-wide cap or rate is the whole queue's: the hash's field 'partitions' (P, written with
--     them) says how many partitions share it, and each enforces its share (divided by P, at least 1)
--     as the configured limits are divided; lane limits are not divided (a lane lives in one
--     partition). The key and the tag are removed, as events_take removes its own (call it after
--     events_take). One HMGET; a call without the tag pays one comparison
--- @include "int"
--- @include "keys"

local function allowance(active, log, max_active, rate, period, now)
  local n = math.huge
  local limit = ''
  local reopen = 0
  if max_active > 0 then
    local free = max_active - redis.call('ZCARD', active)
    if free < n then
      n = math.max(free, 0)
      limit = 'MAX_ACTIVE'
    end
  end
  if rate > 0 then
    require_zset(log)
    local since = '(' .. (now - period)
    local used = redis.call('ZCOUNT', log, since, '+inf')
    local free = rate - used
    if free < n then
      n = math.max(free, 0)
      limit = 'RATE'
    end
    if limit == 'RATE' then
      -- once the claim takes its 'free' starts the window holds 'rate' of them: it has room
      -- again when the oldest of those slides out (one taken now if the window was empty)
      local oldest = redis.call('ZRANGEBYSCORE', log, since, '+inf', 'WITHSCORES', 'LIMIT', math.max(used - rate, 0), 1)
      reopen = (oldest[2] and tonumber(oldest[2]) or now) + period
    end
  end
  return n, limit, reopen
end

local function log_starts(log, period, now, members)
  for _, member in ipairs(members) do
    redis.call('ZADD', log, now, member)
  end
  redis.call('ZREMRANGEBYSCORE', log, '-inf', now - period)
  redis.call('PEXPIRE', log, period)
end

local LIMITS_TAG = '=limits'

local function limits_take(keys, c)
  local n = #ARGV
  if n < 1 or ARGV[n] ~= LIMITS_TAG then
    return
  end
  local key = string.match(keys[1], '^(.*:)[^:]*$') .. 'limits'
  local at = nil
  for i = #keys, 1, -1 do
    if keys[i] == key then
      at = i
      break
    end
  end
  if not at then
    error('EMQARG stored limits need the hash ' .. key .. ' declared; nothing was written', 0)
  end
  table.remove(keys, at)
  table.remove(ARGV)
  local s = redis.pcall('HMGET', key, 'max_active', 'rate', 'period', 'lane_max_active', 'lane_rate', 'lane_period',
    'partitions')
  if s.err then
    error('EMQKEYTYPE ' .. key .. ' is not a hash; nothing was written', 0)
  end
  for i = 1, 7 do
    s[i] = int(s[i])
    if s[i] and s[i] < 1 then
      s[i] = nil
    end
  end
  local parts = s[7] or 1
  if s[1] then
    c.max_active = math.max(1, math.floor(s[1] / parts))
  end
  if s[2] and s[3] then
    c.rate = math.max(1, math.floor(s[2] / parts))
    c.period = s[3]
  end
  if c.lane_max_active and s[4] then
    c.lane_max_active = s[4]
  end
  if c.lane_rate and s[5] and s[6] then
    c.lane_rate = s[5]
    c.lane_period = s[6]
  end
end
