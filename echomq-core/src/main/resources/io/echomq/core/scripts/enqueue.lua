-- enqueue: new jobs -> pending (or -> schedule when delayed), rows written in the same move.
--
-- Validate, then write: every argument is checked and every row key is checked to be free before
-- the first write, so a refused call writes nothing. The first write is an HSET, which a server at
-- maxmemory refuses: a full server takes no new work.
--
-- KEYS[1]     emq:{q}:pending   ZSET, score -priority (0 by default)
-- KEYS[2]     emq:{q}:schedule  ZSET, score run-at (ms)
-- KEYS[3]     emq:{q}:metrics   HASH, field 'enqueued'
-- KEYS[4]     emq:{q}:wake      LIST of wake-up tokens (a schedule token when a delayed job comes
--             before every other scheduled job: wake.lua)
-- KEYS[5..4+N] emq:{q}:job:<id>  HASH, one row per job, in ARGV order
-- with a lane (ARGV[6] not ''), after the rows:
-- KEYS[5+N]   emq:{q}:lane:<lane>:pending  ZSET, the lane's pending location (instead of KEYS[1])
-- KEYS[6+N]   emq:{q}:lanes     ZSET, the ring of lanes with ready work
-- KEYS[7+N]   emq:{q}:lane-controls  HASH, the lanes' controls (lane_controls.lua): with a cap on the
--             lane, a call that would leave more than the cap in the lane's pending set is refused
--             whole (EMQFULL), whether its jobs are ready or delayed (a delayed job of the lane is not
--             counted until promote.lua moves it to the lane's pending set, and promotions and retries
--             are never refused); a paused lane's new jobs wait in its pending set, the lane left out
--             of the ring and no wake-up pushed
-- [unique]    when the extra fields name a unique key (unique.lua; then exactly one job), after those:
--             emq:{q}:unique:<name> STRING, then (optional) the row of its holder
-- ARGV[1]     max_attempts (>= 1)
-- ARGV[2]     priority (integer, higher runs sooner)
-- ARGV[3]     delay in ms from server time (>= 0)
-- ARGV[4]     absolute run-at in epoch ms, or '' for none
-- ARGV[5]     E, the number of extra row field pairs
-- ARGV[6]     lane key, or '' for none (kept on the row as 'lane'; a delayed job keeps it in schedule
--             and promote.lua moves it to its lane)
-- ARGV[7..6+2E]  extra field, value pairs (e.g. trace headers); [expiry] 'expire_in' (ms from server
--             time) or 'expires_at' (server ms) among them gives every job of the call the row field
--             'expires_at', its deadline (expiry.lua): not after server time or after the run-at is
--             refused (EMQARG, nothing written)
-- then        id, payload per job
-- [events]    optional, last: the stream emq:{q}:events declared after every other key, ARGV ending
--             with EVENTS_TAG, N (events.lua): adds 'added' (field state: pending or schedule) per job,
--             in the same move
-- returns     {now, state, count}; [unique] {now, state, count, outcome, id}: outcome 'created' (id the
--             new job), 'duplicate', 'debounced' or 'held' (count 0; see unique.lua); errors (nothing
--             written): EMQARG a malformed argument (an id that is not a JOB id or not its row key's, a
--             debounce key on a job of a lane among them),
--             EMQDUP a row already exists, EMQFULL the lane's cap (lane <lane> holds <size> of cap
--             <cap>, <N> more refused), EMQKEYTYPE a location is not a sorted set (or a unique key
--             not a string)
--- @include "clock"
--- @include "int"
--- @include "keys"
--- @include "wake"
--- @include "admit"
--- @include "lanes"
--- @include "lane_controls"
--- @include "unique"
--- @include "events"
--- @include "expiry"

-- validate
local events = events_take(KEYS)
local K = {pending = KEYS[1], schedule = KEYS[2], metrics = KEYS[3], wake = KEYS[4]}
local max_attempts = arg_int(1, 1)
local priority = arg_int(2, nil)
local delay = arg_int(3, 0)
local run_at_arg = nil
if ARGV[4] ~= '' then
  run_at_arg = arg_int(4, 0)
end
local extras = arg_int(5, 0)
local expiry = expiry_arg(7, extras)
local lane = ARGV[6]
if lane ~= '' and (#lane > 64 or not string.match(lane, '^[A-Za-z0-9._-]+$')) then
  error('EMQARG lane key ' .. lane .. ' must be 1-64 characters of [A-Za-z0-9._-]; nothing was written', 0)
end
local lane_keys = (lane ~= '') and 3 or 0
local first = 7 + 2 * extras
local count = (#ARGV - first + 1) / 2
-- [unique]
local unique_at = 5 + count + lane_keys
local unique = unique_arg(7, extras, count, K.pending, KEYS[unique_at], KEYS[unique_at + 1], unique_at)
local unique_keys = unique and (unique.holder_row and 2 or 1) or 0
if count < 1 or count ~= math.floor(count) or #KEYS ~= 4 + count + lane_keys + unique_keys then
  return redis.error_reply('EMQARG ' .. #ARGV .. ' arguments and ' .. #KEYS .. ' keys do not describe '
    .. extras .. ' extra fields and one row key, id and payload per job')
end
for i = 1, count do
  require_id(ARGV[first + 2 * (i - 1)], KEYS[4 + i], 'job')
end
if unique and lane ~= '' and unique.mode == 'debounce' then
  error('EMQARG a debounce key cannot be used with a lane (lane ' .. lane .. '); nothing was written', 0)
end
local pending = K.pending
local lane_cap_of, lane_paused = nil, false
if lane ~= '' then
  pending = KEYS[5 + count]
  require_zset(KEYS[6 + count])
  controls_ok(KEYS[7 + count])
  lane_cap_of = lane_cap(KEYS[7 + count], lane)
  lane_paused = redis.call('HEXISTS', KEYS[7 + count], 'paused:' .. lane) == 1
end
-- one EXISTS for every row; which one exists is looked up only to name it
if redis.call('EXISTS', unpack(KEYS, 5, 4 + count)) > 0 then
  for i = 1, count do
    if redis.call('EXISTS', KEYS[4 + i]) == 1 then
      return redis.error_reply('EMQDUP job row already exists: ' .. KEYS[4 + i])
    end
  end
end

-- compute
local now = now_ms()
local run_at = run_at_arg or (now + delay)
local state = 'pending'
if run_at > now then
  state = 'schedule'
end
-- [expiry]
local deadline = expiry and expiry_deadline(expiry, now, run_at)
-- [unique] a held key answers here: nothing below is written
if unique then
  -- a debounce moves its waiting holder to the new run-at: a schedule token when that heads the schedule
  local debounce_head, debounce_wakeable = nil, false
  if unique.mode == 'debounce' then
    require_zset(K.schedule)
    debounce_head = schedule_head(K.schedule)
    debounce_wakeable = wake_ok(K.wake)
  end
  local held = unique_held(unique, now, run_at, K.pending, K.schedule, ARGV[first + 1])
  if held then
    if held[4] == 'debounced' then
      wake_due(K.wake, debounce_wakeable, debounce_head, run_at)
    end
    return held
  end
end
require_zset((state == 'pending') and pending or K.schedule)
if lane_cap_of then
  require_zset(pending)
  local size = redis.call('ZCARD', pending)
  if size + count > lane_cap_of then
    error('EMQFULL lane ' .. lane .. ' holds ' .. size .. ' of cap ' .. lane_cap_of .. ', ' .. count
      .. ' more refused; nothing was written', 0)
  end
end
local counted = counter_ok(K.metrics, 'enqueued')
local wakeable = wake_ok(K.wake)
local head = (state == 'schedule') and schedule_head(K.schedule)

-- write
local extra_pairs = deadline and expiry_pairs(7, extras, deadline) or {unpack(ARGV, 7, 6 + 2 * extras)}
if lane ~= '' then
  extra_pairs[#extra_pairs + 1] = 'lane'
  extra_pairs[#extra_pairs + 1] = lane
end
-- every row, then every id into its location with one ZADD
local location, score = pending, 0 - priority
if state ~= 'pending' then
  location, score = K.schedule, run_at
end
local members = {}
for i = 1, count do
  local id = ARGV[first + 2 * (i - 1)]
  admit_row(KEYS[4 + i], ARGV[first + 2 * (i - 1) + 1], state, run_at, max_attempts, priority, now, extra_pairs)
  members[2 * i - 1] = score
  members[2 * i] = id
end
redis.call('ZADD', location, unpack(members))
for i = 1, count do
  event_add(events, 'added', ARGV[first + 2 * (i - 1)], 0, 'state', state)
end

if lane ~= '' and state == 'pending' and not lane_paused then
  to_ring(KEYS[6 + count], lane)
end
if counted then
  redis.call('HINCRBY', K.metrics, 'enqueued', count)
end
if state == 'pending' then
  if not lane_paused then
    wake(K.wake, wakeable)
  end
else
  wake_due(K.wake, wakeable, head, run_at)
end
-- [unique]
if unique then
  unique_take(unique, ARGV[first])
  return {now, state, count, 'created', ARGV[first]}
end
return {now, state, count}
