-- include unique: unique keys. emq:{q}:unique:<name> is a STRING holding the id of the job that holds
-- the key; a throttle key also has a TTL (PX, server time). The row of a unique job names its key in
-- the fields 'unique' (the name), 'unique_mode' (until_done, throttle, debounce) and, for throttle,
-- 'unique_ttl' (ms), written by enqueue.lua with the row (they arrive as extra row fields).
--
-- Every unique key a script reads or writes is declared in KEYS[]. A script never derives a key to
-- touch from row data: it derives the NAME of the key the row names (row key prefix .. 'unique:' ..
-- name) and looks for it among the keys the caller declared (declared: the set of the call's optional
-- keys, key_set in keys.lua). When the caller did not declare it,
-- the script writes nothing and answers which name it needs; the caller (io.echomq.core.Jobs) sends
-- the call again with the key declared. The name on a row never changes, so the second call finds
-- what the first asked for.
--
-- Enqueue side (the call's extra row fields name the key; exactly one job per call):
--   unique_arg(first_extra, extras, count, pending_key, key, holder_row, at)  nil when the extra field
--       pairs ARGV[first_extra..] name no unique key; else the spec {name, mode, ttl, key, holder_id,
--       holder_row}: key is the unique key the caller declared, KEYS[at], and holder_row (optional,
--       KEYS[at + 1]) the row of the job the caller believes holds the key (at only names them in
--       messages). Raises EMQARG (nothing written) on a bad name, mode, ttl, a count other than 1, or a
--       declared key that is not the one the name makes.
--   unique_held(u, now, run_at, pending, schedule, payload)  nil when the key is free (absent, or held by a job that is gone: no
--       row, a row that does not name this key, or one no longer pending, scheduled or active); else
--       the reply to return instead of writing a new job: {now, state, 0, outcome, holder id} with
--       outcome 'duplicate', 'debounced' (this function moved the waiting holder: payload replaced,
--       run-at pushed back, its only writes) or 'held' (the caller must declare the holder's row and
--       call again). A debounce key whose holder is active is free: the new job takes it over.
--   unique_take(u, id)  SET the key to the new job's id (with PX ttl for throttle), after the row.
--
-- Release side (complete, the dead-letter paths of retry and reap):
--   unique_releasable(row, id, declared)  the key to release when the row names an until_done or
--       debounce key that still holds this id, nil when there is nothing to release, or false and
--       the name when the row names a key the caller did not declare
--   unique_releasable_of(row, id, declared, unique, mode)  the same from the row's 'unique' and
--       'unique_mode' values read by the caller (false where absent)
--   unique_release(key)  DEL the key (nil: nothing)
--- @include "keys"
--- @include "payload"

local UNIQUE_MAX_LENGTH = 128

local function unique_fail(message)
  error('EMQARG ' .. message .. '; nothing was written', 0)
end

local function unique_key_of(row, id, name)
  return string.sub(row, 1, #row - #id - 4) .. 'unique:' .. name
end

local function unique_arg(first_extra, extras, count, pending_key, key, holder_row, at)
  local u = nil
  for e = 0, extras - 1 do
    local field = ARGV[first_extra + 2 * e]
    local value = ARGV[first_extra + 1 + 2 * e]
    if field == 'unique' or field == 'unique_mode' or field == 'unique_ttl' then
      u = u or {}
      u[field] = value
    end
  end
  if not u then
    return nil
  end
  local name = u['unique']
  if not name or #name == 0 or #name > UNIQUE_MAX_LENGTH or not string.match(name, '^[%w%._~@/%+=%-]+$') then
    unique_fail('unique key must be 1-' .. UNIQUE_MAX_LENGTH .. ' characters of [A-Za-z0-9._~@/+=-], was '
      .. tostring(name))
  end
  local mode = u['unique_mode']
  if mode ~= 'until_done' and mode ~= 'throttle' and mode ~= 'debounce' then
    unique_fail('unique_mode must be until_done, throttle or debounce, was ' .. tostring(mode))
  end
  local ttl = int(u['unique_ttl'])
  if mode == 'throttle' and (not ttl or ttl < 1) then
    unique_fail('a throttle key needs unique_ttl >= 1 (ms), was ' .. tostring(u['unique_ttl']))
  end
  if count ~= 1 then
    unique_fail('a unique key names one job, the call has ' .. count)
  end
  local base = string.sub(pending_key, 1, #pending_key - #'pending')
  if key ~= base .. 'unique:' .. name then
    unique_fail('KEYS[' .. at .. '] must be ' .. base .. 'unique:' .. name .. ', was ' .. tostring(key))
  end
  local holder_id = nil
  if holder_row then
    holder_id = string.sub(holder_row, #base + 5)
    if string.sub(holder_row, 1, #base + 4) ~= base .. 'job:' or #holder_id == 0 then
      unique_fail('KEYS[' .. (at + 1) .. '] must be a row key ' .. base .. 'job:<id>, was ' .. holder_row)
    end
  end
  return {name = name, mode = mode, ttl = ttl, key = key, holder_id = holder_id, holder_row = holder_row}
end

local function unique_held(u, now, run_at, pending, schedule, payload)
  if key_type(u.key) == 'none' then
    return nil
  end
  require_type(u.key, 'string', 'string')
  local holder = redis.call('GET', u.key)
  if u.mode == 'throttle' then
    return {now, 'throttled', 0, 'duplicate', holder}
  end
  if holder ~= u.holder_id then
    return {now, 'held', 0, 'held', holder}
  end
  local h = redis.pcall('HMGET', u.holder_row, 'state', 'unique')
  if h.err or h[2] ~= u.name or (h[1] ~= 'pending' and h[1] ~= 'schedule' and h[1] ~= 'active') then
    return nil
  end
  if u.mode ~= 'debounce' then
    return {now, h[1], 0, 'duplicate', holder}
  end
  if h[1] == 'active' then
    return nil
  end
  -- debounce: the waiting holder takes the new payload and runs at the new run-at
  require_zset(pending)
  require_zset(schedule)
  redis.call('ZREM', pending, holder)
  redis.call('ZADD', schedule, run_at, holder)
  payload_replace(u.holder_row, payload)
  redis.call('HSET', u.holder_row, 'state', 'schedule', 'run_at', run_at)
  return {now, 'schedule', 0, 'debounced', holder}
end

local function unique_take(u, id)
  if u.mode == 'throttle' then
    redis.call('SET', u.key, id, 'PX', u.ttl)
  else
    redis.call('SET', u.key, id)
  end
end

local function unique_releasable_of(row, id, declared, unique, mode)
  if not unique or mode == 'throttle' then
    return nil
  end
  local key = unique_key_of(row, id, unique)
  if not declared[key] then
    return false, unique
  end
  if key_type(key) ~= 'string' or redis.call('GET', key) ~= id then
    return nil
  end
  return key
end

local function unique_releasable(row, id, declared)
  local f = redis.pcall('HMGET', row, 'unique', 'unique_mode')
  if f.err then
    return nil
  end
  return unique_releasable_of(row, id, declared, f[1], f[2])
end

local function unique_release(key)
  if key then
    redis.call('DEL', key)
  end
end
