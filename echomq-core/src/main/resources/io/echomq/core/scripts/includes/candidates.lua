-- include candidates: the scan every script that moves a page of candidates makes before it writes
-- (claim, claim_lanes, promote, reap, purge). The caller names the candidates, so that every row
-- key is declared; a candidate that left the location since the caller read it is passed over.
--
-- scan(location, state, first, last, rows, due, lane, max, seen, skipped[, expiry])
--           for each candidate ARGV[first..last], once per call: when it is still in the sorted set
--           location (and, with due, scored at or before due), its row rows[i - first + 1] (rows:
--           the candidates' row keys, in ARGV order) is validated for the state (valid_row, row.lua); with lane, the row's lane field too
--           (row_lane: a malformed one skips the candidate). The scan stops once max candidates
--           are valid (false: no bound). seen holds the ids already seen, to share across scans of
--           one call (false: a new one); skipped, the list {id, reason, ...} the skipped candidates
--           are appended to (false: a new one). Returns the valid candidates as one flat list of
--           (ARGV index, row key, fields, lane key or false) quadruples, and skipped. The caller
--           loops over the quadruples: the scan makes no closure, per call or per candidate, and
--           no table per candidate. With expiry (expire.lua's x: the scripts that hand a job on to
--           run), the row's 'expires_at' is read in the same HMGET (fields[8]); a candidate whose
--           deadline is at or before expiry.now is not valid: it goes to expiry.found (ARGV index,
--           row key, fields, location) when expiry.move, else to skipped with reason 'expired'; a
--           deadline that is not an integer skips the candidate as a malformed row.
--- @include "row"

local function scan(location, state, first, last, rows, due, lane, max, seen, skipped, expiry)
  local fields = expiry and row_fields_and({'expires_at'})
  seen = seen or {}
  skipped = skipped or {}
  local valid = {}
  local bound = max and 4 * max
  for i = first, last do
    if bound and #valid >= bound then
      break
    end
    local id = ARGV[i]
    local score = not seen[id] and redis.call('ZSCORE', location, id)
    if score and (not due or tonumber(score) <= due) then
      seen[id] = true
      local row = rows[i - first + 1]
      local f, problem = valid_row(row, state, fields)
      local row_lane_key = false
      if f and expiry and f[8] then
        local deadline = int(f[8])
        if not deadline then
          f, problem = nil, "field 'expires_at' is not an integer"
        elseif deadline <= expiry.now then
          if expiry.move then
            local found = expiry.found
            found[#found + 1] = i
            found[#found + 1] = row
            found[#found + 1] = f
            found[#found + 1] = location
          else
            skipped[#skipped + 1] = id
            skipped[#skipped + 1] = 'expired'
          end
          f, row_lane_key = nil, nil
        end
      end
      if f and lane then
        row_lane_key, problem = row_lane(row)
      end
      if f and row_lane_key ~= nil then
        valid[#valid + 1] = i
        valid[#valid + 1] = row
        valid[#valid + 1] = f
        valid[#valid + 1] = row_lane_key
      elseif problem then
        skipped[#skipped + 1] = id
        skipped[#skipped + 1] = problem
      end
    end
  end
  return valid, skipped
end
