-- include wake: wake(key, ok) pushes one wake-up token for the consumers blocked on the wake list
-- and keeps the list at 16 tokens; ok is wake_ok(key), read before the script's first write.
local function wake(key, ok)
  if ok then
    redis.call('LPUSH', key, 1)
    redis.call('LTRIM', key, 0, 15)
  end
end
