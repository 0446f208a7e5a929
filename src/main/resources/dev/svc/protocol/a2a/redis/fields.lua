-- A scope's task ids, newest status first, each followed by its context, state and status ms.
-- KEYS: the scope zset. ARGV: the task-key prefix.
local ids = redis.call('ZREVRANGEBYSCORE', KEYS[1], '+inf', '-inf')
local out = {}
for _, id in ipairs(ids) do
  local f = redis.call('HMGET', ARGV[1] .. id, 'context', 'state', 'status_ms')
  if f[1] then
    table.insert(out, id); table.insert(out, f[1]); table.insert(out, f[2])
    table.insert(out, f[3])
  end
end
return out
