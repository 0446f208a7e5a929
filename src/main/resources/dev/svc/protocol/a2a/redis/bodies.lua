-- The stored bodies of tasks, '' for one that is gone.
-- KEYS: the task-key prefix. ARGV: task ids.
local out = {}
for i, id in ipairs(ARGV) do
  out[i] = redis.call('HGET', KEYS[1] .. id, 'body') or ''
end
return out
