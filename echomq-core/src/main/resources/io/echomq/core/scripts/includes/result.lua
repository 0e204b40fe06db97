-- include result: a completed job's result (docs/results.md), written by the completing script in
-- the same move as the completion.
--
-- A job with a result is completed with the result in ARGV behind the tag RESULT_TAG (never a job id,
-- a token or a number, so the tag cannot be mistaken for another argument). A queue that retains its
-- completed jobs keeps the result on the row (field 'result'); a queue that does not keeps it in
-- emq:{q}:result:<id>, a STRING with a TTL (PX, ms), declared in KEYS[] among the keys after the fixed
-- ones: the script derives the name from the row key and looks for it there, as unique.lua does for a
-- unique key, so a key it was not given is never touched.
--
-- result_key_of(row, id)       the name of the result key of the job whose row key is row
-- result_key(declared, row, id)  that key when the caller declared it (declared: a set of keys), else
--                              an EMQARG error (nothing written yet)
-- result_ttl(i)                ARGV[i] as a TTL in ms (>= 1), else an EMQARG error
-- result_store(key, value, ttl)  SET key value PX ttl
--- @include "int"

local RESULT_TAG = '=result'

local function result_key_of(row, id)
  return string.sub(row, 1, #row - #id - 4) .. 'result:' .. id
end

local function result_key(declared, row, id)
  local key = result_key_of(row, id)
  if not declared[key] then
    error('EMQARG the result of ' .. id .. ' needs its key ' .. key .. ' declared; nothing was written', 0)
  end
  return key
end

local function result_ttl(i)
  return arg_int(i, 1)
end

local function result_store(key, value, ttl)
  redis.call('SET', key, value, 'PX', ttl)
end
