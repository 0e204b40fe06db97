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
