-- include owner: the claim's one write to a claimed row.
--
-- claim_row(row, attempts, owner)
--                        one HSET of the row's state ('active'), its attempts (the new fencing
--                        token) and 'claimed_by', the claiming node's name; a claim naming no node
--                        ('') deletes the field rather than leave an earlier claimant's name. The
--                        field is the last claimant: it is kept when the job leaves active, and
--                        the next claim overwrites it, so it names the lease holder exactly while
--                        the state is 'active', and who ran the job last otherwise.
local function claim_row(row, attempts, owner)
  if owner == '' then
    redis.call('HSET', row, 'state', 'active', 'attempts', attempts)
    redis.call('HDEL', row, 'claimed_by')
  else
    redis.call('HSET', row, 'state', 'active', 'attempts', attempts, 'claimed_by', owner)
  end
end
