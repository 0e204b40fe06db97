-- include row: the job row's schema, checked before a script writes anything.
--
-- read_row(key[, fields])
--                     the row's ROW_FIELDS values (false where a field is absent), or nil and why
--                     not ('no row', 'row is not a hash'); never raises. fields, from
--                     row_fields_and(extra), reads the row's extra fields in the same HMGET, after
--                     ROW_FIELDS (at 8, 9, ...)
-- row_fields_and(extra)  ROW_FIELDS followed by the names in extra
-- field_problem(f)    nil when the fields are well-formed, else what is wrong:
--   state         required, names a location (pending, active, schedule, dead, quarantine,
--                 completed, waiting)
--   attempts      required, integer >= 0 (the fencing token)
--   max_attempts  required, integer >= 1
--   released      optional, integer between 0 and attempts
--   priority      optional, integer
--   enqueued_at   required, integer (ms)
--   ready_at      optional, integer (ms)
-- state_problem(f, state)  nil when the row's state is the expected location, else what it is
-- row_at(location, key, id, state, code, detail[, fields])
--                           the row's fields (read_row) when the id is in the sorted set location and
--                           its row is well-formed and in state; else nil and the reply: {0, code,
--                           detail} when the id is not in location, {0, 'MALFORMED_ROW', problem},
--                           or {0, 'WRONG_STATE', 'state is ...'}
-- row_lane(row)             the row's lane key: false when it has none, or nil and the problem when
--                           the field is not a valid lane key (1-64 of [A-Za-z0-9._-])
-- valid_row(key, state[, fields])  read_row, field_problem and state_problem in one: the fields, or
--                           nil and the first problem found (fields as read_row's)
--
-- io.echomq.core.RowSchema holds the same rules, with the same texts, for the audit.
--- @include "int"

local ROW_FIELDS = {'state', 'attempts', 'max_attempts', 'released', 'priority', 'enqueued_at', 'ready_at'}

local function row_fields_and(extra)
  local fields = {unpack(ROW_FIELDS)}
  for _, name in ipairs(extra) do
    fields[#fields + 1] = name
  end
  return fields
end

local function read_row(key, fields)
  local f = redis.pcall('HMGET', key, unpack(fields or ROW_FIELDS))
  if f.err then
    return nil, 'row is not a hash'
  end
  if not f[1] and redis.call('EXISTS', key) == 0 then
    return nil, 'no row'
  end
  return f
end

-- no table of the rules: a script runs its includes' top level on every call, so a constant table
-- would be built again each time
local function int_problem(raw, name, required, minimum)
  if not raw then
    return required and ("field '" .. name .. "' is missing") or nil
  end
  local value = int(raw)
  if not value then
    return "field '" .. name .. "' is not an integer"
  end
  if minimum and value < minimum then
    return "field '" .. name .. "' is less than " .. minimum
  end
  return nil
end

local function field_problem(f)
  local state = f[1]
  if not state then
    return "field 'state' is missing"
  end
  if state ~= 'pending' and state ~= 'active' and state ~= 'schedule' and state ~= 'dead'
      and state ~= 'quarantine' and state ~= 'completed' and state ~= 'waiting' then
    return "field 'state' names no location"
  end
  local problem = int_problem(f[2], 'attempts', true, 0) or int_problem(f[3], 'max_attempts', true, 1)
    or int_problem(f[4], 'released', false, 0) or int_problem(f[5], 'priority', false, false)
    or int_problem(f[6], 'enqueued_at', true, false) or int_problem(f[7], 'ready_at', false, false)
  if problem then
    return problem
  end
  if f[4] and int(f[4]) > int(f[2]) then
    return "field 'released' is greater than 'attempts'"
  end
  return nil
end

local function state_problem(f, state)
  if f[1] == state then
    return nil
  end
  return "state is '" .. f[1] .. "', not '" .. state .. "'"
end

local function valid_row(key, state, fields)
  local f, problem = read_row(key, fields)
  if not f then
    return nil, problem
  end
  problem = field_problem(f) or state_problem(f, state)
  if problem then
    return nil, problem
  end
  return f
end

local function row_lane(row)
  local lane = redis.call('HGET', row, 'lane')
  if lane and (#lane > 64 or not string.match(lane, '^[A-Za-z0-9._-]+$')) then
    return nil, "field 'lane' is not a valid lane key"
  end
  return lane
end

local function row_at(location, key, id, state, code, detail, fields)
  if not redis.call('ZSCORE', location, id) then
    return nil, {0, code, detail}
  end
  local f, problem = read_row(key, fields)
  problem = problem or field_problem(f)
  if problem then
    return nil, {0, 'MALFORMED_ROW', problem}
  end
  if f[1] ~= state then
    return nil, {0, 'WRONG_STATE', 'state is ' .. f[1]}
  end
  return f
end
