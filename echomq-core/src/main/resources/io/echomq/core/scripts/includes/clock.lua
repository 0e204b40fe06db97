-- include clock: now_ms(), the server's time in ms. Every deadline and run-at is server time,
-- so that workers with skewed clocks agree.
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
