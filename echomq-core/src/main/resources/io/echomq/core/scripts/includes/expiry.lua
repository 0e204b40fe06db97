-- include expiry: the deadline a job must be claimed by (docs/producing.md, "Expiry"), kept on its row
-- as 'expires_at' (server ms). enqueue.lua reads it from the call's extra row fields: 'expire_in', ms
-- from the enqueue on server time (replaced on the row by the 'expires_at' it makes), or 'expires_at',
-- an absolute server time in ms. expire.lua moves a job found past it.
--
-- expiry_arg(first_extra, extras)  nil when the extra field pairs ARGV[first_extra..] name no expiry;
--     else {ms, at} (one of them false); an EMQARG error (nothing written) when a value is not an
--     integer, both are given, or 'expire_in' is less than 1
-- expiry_deadline(x, now, run_at)  the deadline, now + ms or at; an EMQARG error (nothing written yet)
--     when it is not after both now and the job's run-at: such a job could never run
-- expiry_pairs(first_extra, extras, deadline)  the extra field pairs to write, 'expire_in' left out
--     and 'expires_at' the deadline
--- @include "int"

local function expiry_fail(message)
  error('EMQARG ' .. message .. '; nothing was written', 0)
end

local function expiry_arg(first_extra, extras)
  local x = nil
  for e = 0, extras - 1 do
    local field = ARGV[first_extra + 2 * e]
    if field == 'expire_in' or field == 'expires_at' then
      local value = int(ARGV[first_extra + 1 + 2 * e])
      if not value then
        expiry_fail("expiry field '" .. field .. "' must be an integer (ms), was " .. ARGV[first_extra + 1 + 2 * e])
      end
      if x then
        expiry_fail("an enqueue names one expiry, 'expire_in' or 'expires_at', not both")
      end
      x = {ms = (field == 'expire_in') and value, at = (field == 'expires_at') and value}
      if x.ms and x.ms < 1 then
        expiry_fail('expiry must be positive, was ' .. x.ms .. ' ms')
      end
    end
  end
  return x
end

local function expiry_deadline(x, now, run_at)
  local deadline = x.at or (now + x.ms)
  if deadline <= now then
    expiry_fail('expiry ' .. deadline .. ' is not after server time ' .. now .. ' (ms): the job would never run')
  end
  if deadline <= run_at then
    expiry_fail('expiry ' .. deadline .. ' is not after the run-at ' .. run_at .. ' (ms): the job would never run')
  end
  return deadline
end

local function expiry_pairs(first_extra, extras, deadline)
  local pairs_out = {}
  for e = 0, extras - 1 do
    local field = ARGV[first_extra + 2 * e]
    if field ~= 'expire_in' and field ~= 'expires_at' then
      pairs_out[#pairs_out + 1] = field
      pairs_out[#pairs_out + 1] = ARGV[first_extra + 1 + 2 * e]
    end
  end
  pairs_out[#pairs_out + 1] = 'expires_at'
  pairs_out[#pairs_out + 1] = deadline
  return pairs_out
end
