-- include wake: wake(key, ok) pushes one wake-up token for the consumers blocked on the wake list
-- and keeps the list at 16 tokens; wake_all(key, ok) fills the list to those 16, for every idle
-- consumer at once (a resume). ok is wake_ok(key), read before the script's first write.
local function wake(key, ok)
  if ok then
    redis.call('LPUSH', key, 1)
    redis.call('LTRIM', key, 0, 15)
  end
end

local function wake_all(key, ok)
  if ok then
    for _ = 1, 16 do
      redis.call('LPUSH', key, 1)
    end
    redis.call('LTRIM', key, 0, 15)
  end
end
