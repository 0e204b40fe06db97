-- include keys: what a script checks about the queue's own keys before it writes to them.
--
-- require_type(key, type, name)
--                           raises an EMQKEYTYPE error (nothing written yet) unless the key is of the
--                           type (as TYPE names it; name is how the message names it) or absent
-- require_zset(key)         the same for a sorted set: a location a script is about to ZADD to
-- counter_ok(key, field)    whether HINCRBY key field can apply: the key a hash or absent, the field
--                           absent or an integer. A counter that cannot be bumped is left as it is
--                           (the audit reports it); the transition itself still applies.
-- wake_ok(key)              the wake list's length when it can take a push (a list, or absent: 0),
--                           else false; wake.lua reads the length to skip the push into a full list
-- key_list(keys, from, to)  keys[from..to] as a new list (to: #keys when absent): a script hands an
--                           include a group of its keys (rows, lanes) by this, never a position
-- key_set(keys, from)       the set of keys[from..] (from: 1 when absent): the optional keys a caller
--                           declared
-- require_id(id, key, kind) raises an EMQARG error (nothing written yet) unless id is a JOB id (JOB
--                           and 22 base62 digits) and key is its '<kind>:<id>' key (kind: job or
--                           batch): a script that creates a row is told its id and key apart
--- @include "int"

local function key_type(key)
  return redis.call('TYPE', key).ok
end

local function require_type(key, wanted, name)
  local t = key_type(key)
  if t ~= wanted and t ~= 'none' then
    error('EMQKEYTYPE ' .. key .. ' is a ' .. t .. ', not a ' .. name .. '; nothing was written', 0)
  end
end

local function require_zset(key)
  require_type(key, 'zset', 'sorted set')
end

local function counter_ok(key, field)
  local value = redis.pcall('HGET', key, field)
  if type(value) == 'table' and value.err then
    return false
  end
  return not value or int(value) ~= nil
end

local function wake_ok(key)
  local length = redis.pcall('LLEN', key)
  if type(length) ~= 'number' then
    return false
  end
  return length
end

local function key_list(keys, from, to)
  local list = {}
  for i = from, to or #keys do
    list[#list + 1] = keys[i]
  end
  return list
end

local function key_set(keys, from)
  local set = {}
  for i = from or 1, #keys do
    set[keys[i]] = true
  end
  return set
end

local function require_id(id, key, kind)
  if #id ~= 25 or not string.match(id, '^JOB[0-9A-Za-z]+$') then
    error('EMQARG ' .. id .. ' is not a JOB id (JOB and 22 base62 digits); nothing was written', 0)
  end
  local suffix = ':' .. kind .. ':' .. id
  if string.sub(key, -#suffix) ~= suffix then
    error('EMQARG key ' .. key .. ' is not the ' .. kind .. ' key of ' .. id .. '; nothing was written', 0)
  end
end
