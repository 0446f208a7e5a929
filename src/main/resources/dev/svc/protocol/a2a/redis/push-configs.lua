-- The push configs of a task in the caller's scope, in the order they were made.
-- KEYS: task hash, push configs hash, push configs order list. ARGV: agent, principal.
local t = redis.call('HMGET', KEYS[1], 'agent', 'principal')
if not t[1] or t[1] ~= ARGV[1] or t[2] ~= ARGV[2] then return {} end
local out = {}
for _, id in ipairs(redis.call('LRANGE', KEYS[3], 0, -1)) do
  local c = redis.call('HGET', KEYS[2], id)
  if c then table.insert(out, c) end
end
return out
