-- Deletes a push config of a task in the caller's scope.
-- KEYS: task hash, push configs hash, push configs order list.
-- ARGV: agent, principal, config id. Returns 1 when deleted, 0 otherwise.
local t = redis.call('HMGET', KEYS[1], 'agent', 'principal')
if not t[1] or t[1] ~= ARGV[1] or t[2] ~= ARGV[2] then return 0 end
redis.call('LREM', KEYS[3], 0, ARGV[3])
return redis.call('HDEL', KEYS[2], ARGV[3])
