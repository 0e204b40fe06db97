-- include fence: the check every fenced transition on a claimed job makes first.
--
-- fence(active, row, id, token[, fields])
--                                the row's fields (ROW_FIELDS order, then any extra fields named
--                                by fields: read_row) when the transition may apply, else nil and
--                                the stale reply {0, CODE, detail}:
--   NOT_ACTIVE      the id is not in active (reaped, released, or never claimed)
--   MALFORMED_ROW   the row is missing, not a hash, or breaks the row schema (row.lua)
--   WRONG_STATE     the row's state is not 'active'
--   TOKEN_MISMATCH  the caller's token is not the row's attempts (a later claim took over)
--- @include "row"

local function fence(active, row, id, token, fields)
  local f, stale = row_at(active, row, id, 'active', 'NOT_ACTIVE', 'not active', fields)
  if not f then
    return nil, stale
  end
  if f[2] ~= token then
    return nil, {0, 'TOKEN_MISMATCH', 'token ' .. token .. ' does not match attempts ' .. f[2]}
  end
  return f
end
