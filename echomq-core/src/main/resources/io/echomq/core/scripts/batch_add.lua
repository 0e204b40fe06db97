-- batch_add: count jobs about to be added to an open batch (includes/batch.lua), before they are
-- written, so the batch cannot finish before them. A sealed or finished batch takes no more jobs.
-- A negative count takes back jobs that were counted but never written (a write that failed after
-- its count: EchoMqAdmin.discard), never below the jobs that have finished.
--
-- KEYS[1]  emq:{q}:batch:<id>   HASH
-- ARGV[1]  how many jobs (not 0; negative to take back)
-- returns  {total} the batch's new total; errors (nothing written): EMQARG, EMQNOBATCH no such batch,
--          EMQSEALED the batch is sealed or finished, EMQCOUNT fewer unfinished jobs than taken back
--- @include "int"

-- validate
local K = {batch = KEYS[1]}
local n = arg_int(1, nil)
if n == 0 then
  error('EMQARG ARGV[1] must not be 0; nothing was written', 0)
end
local state = redis.pcall('HGET', K.batch, 'state')
if type(state) == 'table' or not state then
  error('EMQNOBATCH ' .. K.batch .. ' is not a batch; nothing was written', 0)
end
if state ~= 'open' then
  error('EMQSEALED ' .. K.batch .. ' is ' .. state .. ' and takes no more jobs; nothing was written', 0)
end
if n < 0 then
  local counts = redis.call('HMGET', K.batch, 'total', 'completed', 'dead')
  local total, finished = int(counts[1]) or 0, (int(counts[2]) or 0) + (int(counts[3]) or 0)
  if total + n < finished then
    error('EMQCOUNT ' .. K.batch .. ' has ' .. (total - finished) .. ' unfinished jobs, fewer than the '
      .. -n .. ' taken back; nothing was written', 0)
  end
end

-- write
return {redis.call('HINCRBY', K.batch, 'total', n)}
