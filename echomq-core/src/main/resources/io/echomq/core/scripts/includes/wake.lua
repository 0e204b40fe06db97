-- include wake: wake(key, ok) pushes one wake-up token for the consumers blocked on the wake list
-- and keeps the list at 16 tokens (an LTRIM only when the push's reply says it holds more: consumers
-- pop the tokens, so the list is mostly short); wake_n(key, ok, n) pushes n (at most 16); wake_all(key, ok) fills the list to those 16, for every idle
-- consumer at once (a resume). ok is wake_ok(key), read before the script's first write: false, or
-- the list's length then. A list that held 16 tokens or more takes no '1' token (it would hold the
-- same 16 after the trim, and nobody is blocked on it: no consumer pops), so an enqueue with no
-- consumer listening makes neither the LPUSH nor the LTRIM. A schedule token is always pushed.
--
-- schedule_head(schedule)     the lowest run-at in schedule, or nil when it is empty; read before the
--                             first write by a script that moves a job into schedule
-- wake_due(key, ok, head, run_at)
--                             pushes a schedule token (DUE_TOKEN) when run_at comes before head (or
--                             schedule was empty): the promote ticks of every node sleep until the
--                             earliest run-at they know of, and the listener that pops this token
--                             tells its node's ticks to read the schedule again
local DUE_TOKEN = 'd'
local function wake(key, ok)
  if ok and ok < 16 then
    if redis.call('LPUSH', key, 1) > 16 then
      redis.call('LTRIM', key, 0, 15)
    end
  end
end

local function schedule_head(schedule)
  local head = redis.call('ZRANGE', schedule, 0, 0, 'WITHSCORES')
  if head[2] then
    return tonumber(head[2])
  end
  return nil
end

local function wake_due(key, ok, head, run_at)
  if ok and (head == nil or run_at < head) then
    if redis.call('LPUSH', key, DUE_TOKEN) > 16 then
      redis.call('LTRIM', key, 0, 15)
    end
  end
end

local function wake_n(key, ok, n)
  if ok and ok < 16 and n > 0 then
    -- one LPUSH for all the tokens
    local tokens = {}
    for t = 1, math.min(n, 16) do
      tokens[t] = 1
    end
    if redis.call('LPUSH', key, unpack(tokens)) > 16 then
      redis.call('LTRIM', key, 0, 15)
    end
  end
end

local function wake_all(key, ok)
  wake_n(key, ok, 16)
end
