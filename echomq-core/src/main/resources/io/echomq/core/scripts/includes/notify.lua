-- include notify: tell a process awaiting a job's result (docs/results.md, "Awaiting a result")
-- that the job reached a final outcome, in the same move as the transition.
--
-- An awaiting caller adds the id to emq:{q}:waiters (ZSET, score: when its wait ends, ms) before it
-- subscribes to emq:{q}:done and reads the job again. A script that ends a job looks the id up in
-- waiters (one ZSCORE, read with the rest before the first write) and, only when it is there,
-- removes it and publishes '<outcome> <id>' on done. With no waiter the cost is that one ZSCORE.
--
-- Both names are declared keys (after every other key, as result.lua and unique.lua declare theirs):
-- the script derives them from the row key and uses them only when the caller declared them, so a
-- key it was not given is never touched. The channel name carries the queue's {q} hash tag.
--
-- notify_keys(declared, row, id)  the waiters key and the channel when both are declared, else nil
-- notify_waiting(waiters, id)     whether a caller awaits id (false without waiters)
-- notify(waiters, channel, outcome, id)  ZREM id from waiters, PUBLISH '<outcome> <id>'; outcomes:
--                                 completed, dead, cancelled, deleted (delete, purge), quarantined
-- awaited_by(declared, row, id)   {waiters, channel} when both are declared and a caller awaits id
--                                 (the one ZSCORE), else nil: read before the first write
-- notify_awaited(awaited, outcome, id)  notify, when awaited (what awaited_by returned) is not nil

local function notify_keys(declared, row, id)
  local prefix = string.sub(row, 1, #row - #id - 4)
  local waiters, channel = prefix .. 'waiters', prefix .. 'done'
  if declared[waiters] and declared[channel] then
    return waiters, channel
  end
  return nil, nil
end

local function notify_waiting(waiters, id)
  return waiters ~= nil and redis.call('ZSCORE', waiters, id) ~= false
end

local function notify(waiters, channel, outcome, id)
  redis.call('ZREM', waiters, id)
  redis.call('PUBLISH', channel, outcome .. ' ' .. id)
end

local function awaited_by(declared, row, id)
  local waiters, channel = notify_keys(declared, row, id)
  if notify_waiting(waiters, id) then
    return {waiters, channel}
  end
  return nil
end

local function notify_awaited(awaited, outcome, id)
  if awaited then
    notify(awaited[1], awaited[2], outcome, id)
  end
end
