-- include candidates: the scan every script that moves a page of candidates makes before it writes
-- (claim, claim_lanes, promote, reap, purge). The caller names the candidates, so that every row
-- key is declared; a candidate that left the location since the caller read it is passed over.
--
-- scan(s)   for each candidate ARGV[s.first..#ARGV] (or ..s.last), once per call: when it is still in
--           the sorted set s.location (and, with s.due, scored at or before s.due), its row
--           KEYS[s.rows + i - s.first] is validated for the state s.state (valid_row, row.lua). A
--           valid candidate goes to s.visit(i, id, row, f, lane), which may return a problem to skip
--           it after all; the others are skipped. With s.lane, the row's lane field is checked too
--           (row_lane: lane is its key, false for none; a malformed one skips the candidate). Returns the skipped list {id, reason, ...}: s.skipped
--           with them appended, or a new list. Optional: s.seen, the ids already seen (to share
--           across scans of one call), and s.more(), checked before each candidate (the scan stops
--           when it returns false).
--- @include "row"

local function scan(s)
  local seen = s.seen or {}
  local skipped = s.skipped or {}
  for i = s.first, s.last or #ARGV do
    if s.more and not s.more() then
      break
    end
    local id = ARGV[i]
    local score = not seen[id] and redis.call('ZSCORE', s.location, id)
    if score and (not s.due or tonumber(score) <= s.due) then
      seen[id] = true
      local row = KEYS[s.rows + i - s.first]
      local f, problem = valid_row(row, s.state)
      local lane = false
      if f and s.lane then
        lane, problem = row_lane(row)
        if lane == nil then
          f = nil
        end
      end
      if f then
        problem = s.visit(i, id, row, f, lane)
      end
      if problem then
        skipped[#skipped + 1] = id
        skipped[#skipped + 1] = problem
      end
    end
  end
  return skipped
end
