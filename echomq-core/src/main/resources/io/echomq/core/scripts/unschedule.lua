-- unschedule: removes schedules (definition, next and last fire time, the last occurrence's id and
-- a held fire time) in one move. Occurrences
-- already enqueued stay where they are: they are jobs like any other.
--
-- KEYS[1]     emq:{q}:schedules      HASH
-- KEYS[2]     emq:{q}:schedule-next  ZSET
-- KEYS[3]     emq:{q}:schedule-last  HASH, fields <name>, job:<name>, held:<name>
-- ARGV[1..]   name, definition pairs: a schedule is removed when definition is '' or is still the
--             stored text (start-up removal of a declared schedule must not remove one that an
--             API call has put in its place since it was read)
-- returns     {now, removed}
--- @include "clock"

-- validate
local K = {schedules = KEYS[1], schedule_next = KEYS[2], schedule_last = KEYS[3]}
if #KEYS ~= 3 or #ARGV % 2 ~= 0 then
  return redis.error_reply('EMQARG unschedule takes 3 keys and name, definition pairs; nothing was written')
end
local now = now_ms()
local names = {}
for i = 1, #ARGV, 2 do
  local stored = redis.pcall('HGET', K.schedules, ARGV[i])
  if type(stored) == 'table' and stored.err then
    return redis.error_reply('EMQKEYTYPE ' .. K.schedules .. ' is not a hash; nothing was written')
  end
  if stored and (ARGV[i + 1] == '' or stored == ARGV[i + 1]) then
    names[#names + 1] = ARGV[i]
  end
end

-- write
for _, name in ipairs(names) do
  redis.call('HDEL', K.schedules, name)
  redis.call('ZREM', K.schedule_next, name)
  redis.call('HDEL', K.schedule_last, name, 'job:' .. name, 'held:' .. name)
end
return {now, #names}
