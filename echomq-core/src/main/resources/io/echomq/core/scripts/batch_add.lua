-- batch_add: count jobs about to be added to an open batch (includes/batch.lua), before they are
-- written, so the batch cannot finish before them. A sealed or finished batch takes no more jobs.
--
-- KEYS[1]  emq:{q}:batch:<id>   HASH
-- ARGV[1]  how many jobs (>= 1)
-- returns  {total} the batch's new total; errors (nothing written): EMQARG, EMQNOBATCH no such batch,
--          EMQSEALED the batch is sealed or finished
--- @include "int"

-- validate
local n = arg_int(1, 1)
local state = redis.pcall('HGET', KEYS[1], 'state')
if type(state) == 'table' or not state then
  error('EMQNOBATCH ' .. KEYS[1] .. ' is not a batch; nothing was written', 0)
end
if state ~= 'open' then
  error('EMQSEALED ' .. KEYS[1] .. ' is ' .. state .. ' and takes no more jobs; nothing was written', 0)
end

-- write
return {redis.call('HINCRBY', KEYS[1], 'total', n)}
