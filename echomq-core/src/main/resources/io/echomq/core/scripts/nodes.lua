-- nodes: the queue's registry of the nodes listening to it, one entry per node.
--
-- Each running listener container beats every few seconds (at least every 'every' ms); an entry
-- whose last beat is older than three of its intervals is dead: readers hide it and the next beat
-- of any node deletes it. A container that stops deletes its own entry. The hash expires three of
-- the longest interval after the last beat, so a queue no node listens to keeps no registry.
--
--   beat   HSET the node's entry to '<server ms> <every ms> <summary>' and delete dead entries
--   leave  HDEL the node's entry
--   list   read the entries, on server time
-- Validate, then write.
--
-- KEYS[1]  emq:{q}:nodes  HASH, node name -> '<seen ms> <every ms> <summary>'; the summary is the
--          listener's, written by io.echomq.core.NodeListener
-- ARGV[1]  'beat', 'leave' or 'list'
-- ARGV[2]  the node's name ('beat' and 'leave')
-- ARGV[3]  every, the most ms between two beats of the node (>= 1, 'beat')
-- ARGV[4]  the summary ('beat')
-- returns  beat: {the number of dead entries deleted}; leave: {1 if the entry was there, else 0};
--          list: {now, {node, entry, ...}}, dead entries included
--- @include "clock"
--- @include "int"
--- @include "keys"

local K = {nodes = KEYS[1]}
local MISSED = 3

-- validate
local mode = ARGV[1]
if mode ~= 'beat' and mode ~= 'leave' and mode ~= 'list' then
  return redis.error_reply("EMQARG ARGV[1] must be 'beat', 'leave' or 'list', was " .. tostring(mode)
    .. '; nothing was written')
end
local t = key_type(K.nodes)
if t ~= 'hash' and t ~= 'none' then
  error('EMQKEYTYPE ' .. K.nodes .. ' is a ' .. t .. ', not a hash; nothing was written', 0)
end
if mode == 'list' then
  return {now_ms(), redis.call('HGETALL', K.nodes)}
end
local node = ARGV[2]
if not node or node == '' then
  return redis.error_reply('EMQARG ARGV[2] must name the node; nothing was written')
end
if mode == 'leave' then
  return {redis.call('HDEL', K.nodes, node)}
end
local every = arg_int(3, 1)
local summary = ARGV[4] or ''
local now = now_ms()
local dead = {}
local longest = every
local entries = redis.call('HGETALL', K.nodes)
for i = 1, #entries, 2 do
  if entries[i] ~= node then
    local seen, interval = string.match(entries[i + 1], '^(%d+) (%d+) ')
    seen, interval = tonumber(seen), tonumber(interval)
    if not seen or not interval or now - seen > MISSED * interval then
      dead[#dead + 1] = entries[i]
    elseif interval > longest then
      longest = interval
    end
  end
end

-- write
if #dead > 0 then
  redis.call('HDEL', K.nodes, unpack(dead))
end
redis.call('HSET', K.nodes, node, now .. ' ' .. every .. ' ' .. summary)
redis.call('PEXPIRE', K.nodes, MISSED * longest)
return {#dead}
