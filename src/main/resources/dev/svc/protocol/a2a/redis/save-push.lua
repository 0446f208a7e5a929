-- Saves a push config of a task in the caller's scope (a new id joins the order list).
-- KEYS: task hash, push configs hash, push configs order list.
-- ARGV: agent, principal, config id, config JSON. Returns 1 when saved, 0 otherwise.
local t = redis.call('HMGET', KEYS[1], 'agent', 'principal')
if not t[1] or t[1] ~= ARGV[1] or t[2] ~= ARGV[2] then return 0 end
if redis.call('HSET', KEYS[2], ARGV[3], ARGV[4]) == 1 then
  redis.call('RPUSH', KEYS[3], ARGV[3])
end
return 1
