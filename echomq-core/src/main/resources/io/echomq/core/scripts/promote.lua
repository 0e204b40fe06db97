-- promote: schedule -> pending for each candidate whose run-at is due (server time); a due candidate
-- whose deadline has passed ('expires_at', expire.lua) is never promoted: it moves to dead instead.
--
-- Validate, then write. A due candidate whose row breaks the row schema (row.lua), whose state is
-- not 'schedule', or that has no row, is skipped and left exactly as it is, and reported; the caller
-- pages past it, and quarantine.lua moves it out of the way.
--
-- KEYS[1]     emq:{q}:schedule ZSET
-- KEYS[2]     emq:{q}:pending  ZSET
-- KEYS[3]     emq:{q}:metrics  HASH, field 'promoted'
-- KEYS[4]     emq:{q}:wake     LIST
-- KEYS[5]     emq:{q}:lanes    ZSET, the ring of lanes with ready work
-- KEYS[6..5+D]  emq:{q}:lane:<lane>:pending ZSET, one per declared lane
-- KEYS[6+D..] emq:{q}:job:<id> HASH, one row per candidate, in ARGV order
-- ARGV[1]     D, the number of declared lanes (>= 0)
-- ARGV[2..1+D]  the declared lane keys
-- ARGV[2+D..] candidate ids (the lowest-scored members of schedule)
-- [expire]    optional: emq:{q}:dead, :metrics, :outbox, :waiters, :done after the rows, ARGV ending
--             with EXPIRE_TAG (before the events' tag): a due candidate past its deadline moves to dead
--             in the same move (expire.lua); without them it is passed over, reason 'expired'
-- [events]    optional, last: the stream emq:{q}:events declared after every other key, ARGV ending
--             with EVENTS_TAG, N (events.lua): adds 'promoted' per job moved ('expired' per job
--             expired), in the same move
-- returns     {now, promoted, {skipped id, reason, ...}, {id, lane, ...}, expired}: a due job whose row names a
--             lane goes back to that lane's pending (and the lane into the ring) when the lane is
--             declared; otherwise it stays where it is and is listed last, for the caller to declare
--             its lane and call again
--- @include "clock"
--- @include "int"
--- @include "candidates"
--- @include "keys"
--- @include "wake"
--- @include "pending"
--- @include "lanes"
--- @include "events"
--- @include "expire"

-- validate
local events = events_take(KEYS)
local expiry = expire_take(KEYS)
local K = {schedule = KEYS[1], pending = KEYS[2], metrics = KEYS[3], wake = KEYS[4], ring = KEYS[5]}
local lanes, first, rows, _, problem = lane_args(key_list(KEYS, 6), false)
if problem then
  return redis.error_reply(problem)
end
local now = now_ms()
local moves = {}
local needs = {}
expiry.now = now
local valid, skipped = scan(K.schedule, 'schedule', first, #ARGV, rows, now, true, false, false, false, expiry)
for n = 1, #valid, 4 do
  local i, row, f, lane = valid[n], valid[n + 1], valid[n + 2], valid[n + 3]
  if lane and not lanes[lane] then
    needs[#needs + 1] = ARGV[i]
    needs[#needs + 1] = lane
  else
    if lane then
      require_zset(lanes[lane])
    end
    moves[#moves + 1] = {i, int(f[5]) or 0, lane, row, f[2]}
  end
end
if #moves > 0 then
  require_zset(K.pending)
  require_zset(K.ring)
end
local counted = counter_ok(K.metrics, 'promoted')
local wakeable = wake_ok(K.wake)
local expired = expire_plan(expiry)

-- write
expire_write(expiry, events)
for _, move in ipairs(moves) do
  local id = ARGV[move[1]]
  redis.call('ZREM', K.schedule, id)
  if move[3] then
    to_lane(lanes[move[3]], K.ring, move[4], id, move[3], move[2], now)
  else
    to_pending(K.pending, move[4], id, move[2], now)
  end
  event_add(events, 'promoted', id, move[5])
end
if #moves > 0 then
  if counted then
    redis.call('HINCRBY', K.metrics, 'promoted', #moves)
  end
  wake(K.wake, wakeable)
end
return {now, #moves, skipped, needs, expired}
