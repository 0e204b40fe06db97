-- include payload: how a payload is laid out in its row. A payload of up to PAYLOAD_SPLIT_MAX bytes is
-- cut into parts of at most PAYLOAD_PART bytes, 'payload' then '+2', '+3', ... (never inside a UTF-8
-- sequence), so that every value of a typical row stays within the server's default
-- hash-max-listpack-value (64) and the row keeps the compact listpack encoding: a 100-byte payload
-- whole turns the row into a hashtable of about 550 bytes, cut it stays a listpack of about 240. A
-- larger payload is kept whole, where the parts would cost more than they save. Readers join the
-- parts in order (RowPayload on the JVM side); HGETALL returns them with the rest of the row.
local PAYLOAD_PART = 64
local PAYLOAD_SPLIT_MAX = 1024

-- payload_fields(payload, fields) appends the field, value pairs of a payload to a flat list.
local function payload_fields(payload, fields)
  local n = #payload
  if n <= PAYLOAD_PART or n > PAYLOAD_SPLIT_MAX then
    fields[#fields + 1] = 'payload'
    fields[#fields + 1] = payload
    return fields
  end
  local start, part = 1, 1
  while start <= n do
    local cut = start + PAYLOAD_PART - 1
    if cut >= n then
      cut = n
    else
      while cut > start do
        local b = string.byte(payload, cut + 1)
        if b < 128 or b >= 192 then
          break
        end
        cut = cut - 1
      end
    end
    fields[#fields + 1] = (part == 1) and 'payload' or ('+' .. part)
    fields[#fields + 1] = string.sub(payload, start, cut)
    start = cut + 1
    part = part + 1
  end
  return fields
end

-- payload_replace(row, payload) writes a new payload over a row's old one, its old parts removed.
local function payload_replace(row, payload)
  local part = 2
  while redis.call('HDEL', row, '+' .. part) == 1 do
    part = part + 1
  end
  redis.call('HSET', row, unpack(payload_fields(payload, {})))
end
