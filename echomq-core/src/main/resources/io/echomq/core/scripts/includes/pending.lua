-- include pending: to_pending(pending, row, id, priority, now) moves an id into pending at its
-- priority (score -priority: higher runs sooner; byte order breaks ties, which is mint order) and
-- writes the row's state and ready_at in the same move. priority is the row's validated
-- 'priority' field, 0 when absent.
local function to_pending(pending, row, id, priority, now)
  redis.call('ZADD', pending, 0 - priority, id)
  redis.call('HSET', row, 'state', 'pending', 'ready_at', now)
end
