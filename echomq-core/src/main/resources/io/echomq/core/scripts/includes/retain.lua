-- include retain: a history location (completed, dead) kept within its bounds.
--
-- A queue that retains its history keeps a finished job's id in the location, scored by the time
-- it got there, with its row. The bounds are `count` (at most that many ids; 0: no count bound) and
-- `age` (none older than that many ms; 0: no age bound). Both are prefixes of the location in score
-- order, so the ids over the bounds are its first over_bounds() members.
--
-- Trimming is bounded per call: a caller passes at most RETAIN_BATCH candidate ids with their row
-- keys (declared, so the script stays cluster-safe), usually those the previous call named with
-- retain_next(). trim() checks each again and removes only those still over the bounds; the row goes
-- with the id only when its state names this location (otherwise the id was a stray copy and the job
-- lives on where its row says, or the row is broken and is left for the audit to report).
--
-- retain_args(i)                      count, age from ARGV[i], ARGV[i + 1] (EMQARG if malformed)
-- over_bounds(zset, now, count, age, card)  how many of the first members are over the bounds
--                                     (card: the location's ZCARD)
-- trim(zset, state, now, count, age, ids_from, rows[, ids_to])
--                                     removes the candidates ARGV[ids_from..ids_to] (ids_to: #ARGV
--                                     when absent; rows: their row keys, a list in the same order)
--                                     still over the bounds; returns how many, and the location's
--                                     size after
-- retain_next(zset, now, count, age, card)  up to RETAIN_BATCH ids over the bounds once one more id is
--                                     added, oldest first (so a queue completing one job at a time
--                                     stays at exactly `count`)
--- @include "int"

local RETAIN_BATCH = 16

local function retain_args(i)
  return arg_int(i, 0), arg_int(i + 1, 0)
end

local function over_bounds(zset, now, count, age, card)
  local over = 0
  if count > 0 then
    over = card - count
  end
  if age > 0 then
    local aged = redis.call('ZCOUNT', zset, '-inf', '(' .. (now - age))
    if aged > over then
      over = aged
    end
  end
  return (over > 0) and over or 0
end

local function trim(zset, state, now, count, age, ids_from, rows, ids_to)
  ids_to = ids_to or #ARGV
  local card = redis.call('ZCARD', zset)
  if ids_from > ids_to then
    return 0, card
  end
  local over = over_bounds(zset, now, count, age, card)
  local trimmed = 0
  for i = ids_from, ids_to do
    if over == 0 then
      break
    end
    local id = ARGV[i]
    local rank = redis.call('ZRANK', zset, id)
    if rank and rank < over then
      local row = rows[i - ids_from + 1]
      local row_state = redis.pcall('HGET', row, 'state')
      redis.call('ZREM', zset, id)
      if row_state == state then
        redis.call('DEL', row)
      end
      over = over - 1
      trimmed = trimmed + 1
    end
  end
  return trimmed, card - trimmed
end

local function retain_next(zset, now, count, age, card)
  local over = over_bounds(zset, now, count, age, card)
  if count > 0 then
    -- one more: the id the next completion adds puts the oldest of the rest over the count
    local next_over = card - count + 1
    if next_over > over then
      over = next_over
    end
  end
  if over <= 0 then
    return {}
  end
  return redis.call('ZRANGE', zset, 0, math.min(over, RETAIN_BATCH) - 1)
end
