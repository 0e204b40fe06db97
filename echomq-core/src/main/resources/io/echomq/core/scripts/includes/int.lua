-- include int: strict integers, for every number a script reads from a row or from ARGV.
--
-- int(value)            the value as a Lua number when it is an integer the way Redis writes and
--                       parses them (HINCRBY, HSET of a number): an optional '-', no leading zero,
--                       at most 15 digits (so Lua holds it exactly); nil for anything else: a missing
--                       field (false), '', ' 1', '1.5', '1e3', '0x10', '01', '+1'
-- arg_int(i, minimum)   ARGV[i] as an integer >= minimum (any integer when minimum is nil), or an
--                       EMQARG error, raised before the script's first write (a string, not an
--                       error table: Redis 6.2's error handler cannot concatenate a table)
local function int(value)
  if type(value) ~= 'string' then
    return nil
  end
  if value == '0' then
    return 0
  end
  local digits = string.match(value, '^%-?([1-9]%d*)$')
  if not digits or #digits > 15 then
    return nil
  end
  return tonumber(value)
end

local function arg_int(i, minimum)
  local value = int(ARGV[i])
  if not value or (minimum and value < minimum) then
    error('EMQARG ARGV[' .. i .. '] must be an integer' .. (minimum and (' >= ' .. minimum) or '')
      .. ', was ' .. tostring(ARGV[i]) .. '; nothing was written', 0)
  end
  return value
end
