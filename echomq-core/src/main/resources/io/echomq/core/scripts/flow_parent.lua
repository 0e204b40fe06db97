-- flow_parent: a new parent of a flow -> waiting, its row written in the same move (docs/flows.md).
-- The parent waits in emq:{q}:waiting until its children have finished (flow.lua); its row has
-- state 'waiting' and 'children_left'. Written before any of its children, so no child can finish
-- before its parent exists.
--
-- Validate, then write: a row that exists already, a malformed argument or a location of the wrong
-- type writes nothing.
--
-- KEYS[1]  emq:{q}:waiting  ZSET, score time of creation (ms)
-- KEYS[2]  emq:{q}:job:<id> HASH, the new row
-- KEYS[3]  emq:{q}:metrics  HASH, field 'enqueued'
-- ARGV[1]  id
-- ARGV[2]  max_attempts (>= 1)
-- ARGV[3]  priority (integer)
-- ARGV[4]  children_left (>= 1)
-- ARGV[5]  payload
-- ARGV[6..] extra field, value pairs (a nested parent's own parent: flow.lua's fields; trace headers)
-- [events]  optional, last: the stream emq:{q}:events declared after every other key, ARGV ending
--           with EVENTS_TAG, N (events.lua): adds 'added' (field state: waiting), in the same move
-- returns  {now} applied; errors (nothing written): EMQARG (an id that is not a JOB id, or not its row
--          key's, among them), EMQDUP the row exists, EMQKEYTYPE
--- @include "clock"
--- @include "int"
--- @include "keys"
--- @include "payload"
--- @include "events"

local events = events_take(KEYS)
local K = {waiting = KEYS[1], row = KEYS[2], metrics = KEYS[3]}

-- validate
local id = ARGV[1]
local max_attempts = arg_int(2, 1)
local priority = arg_int(3, nil)
local children = arg_int(4, 1)
require_id(id, K.row, 'job')
if (#ARGV - 5) % 2 ~= 0 then
  error('EMQARG extra fields must come in field, value pairs; nothing was written', 0)
end
if redis.call('EXISTS', K.row) == 1 then
  error('EMQDUP ' .. K.row .. ' exists; nothing was written', 0)
end
require_zset(K.waiting)
local counted = counter_ok(K.metrics, 'enqueued')

-- write
local now = now_ms()
local fields = {'state', 'waiting', 'attempts', 0, 'max_attempts', max_attempts, 'enqueued_at', now,
  'children_left', children}
if priority ~= 0 then
  fields[#fields + 1] = 'priority'
  fields[#fields + 1] = priority
end
for i = 6, #ARGV, 2 do
  fields[#fields + 1] = ARGV[i]
  fields[#fields + 1] = ARGV[i + 1]
end
payload_fields(ARGV[5], fields)
redis.call('HSET', K.row, unpack(fields))
redis.call('ZADD', K.waiting, now, id)
if counted then
  redis.call('HINCRBY', K.metrics, 'enqueued', 1)
end
event_add(events, 'added', id, 0, 'state', 'waiting')
return {now}
