-- Saves a task unless it is terminal already or belongs to another scope; a running save
-- takes or renews the lease, a terminal one moves the task to the finished set.
-- KEYS: task hash, scope zset, context list, leases zset, finished zset.
-- ARGV: id, agent, principal, context id, state, terminal ('1'|'0'), status ms, seq, body,
--       owner ('' for none), lease until ms ('0' for none), now ms. Returns 1 when saved, 0 otherwise.
local cur = redis.call('HMGET', KEYS[1], 'terminal', 'agent', 'principal', 'seq')
if cur[1] then
  if cur[1] == '1' or cur[2] ~= ARGV[2] or cur[3] ~= ARGV[3] then return 0 end
else
  redis.call('RPUSH', KEYS[3], ARGV[1])
  redis.call('HSET', KEYS[1], 'agent', ARGV[2], 'principal', ARGV[3], 'context', ARGV[4])
end
local seq = tonumber(ARGV[8])
if cur[4] and tonumber(cur[4]) > seq then seq = tonumber(cur[4]) end
redis.call('HSET', KEYS[1], 'state', ARGV[5], 'terminal', ARGV[6], 'status_ms', ARGV[7],
  'seq', seq, 'body', ARGV[9], 'updated', ARGV[12])
if ARGV[10] ~= '' then redis.call('HSET', KEYS[1], 'owner', ARGV[10]) end
redis.call('ZADD', KEYS[2], ARGV[7], ARGV[1])
if ARGV[6] == '1' then
  redis.call('ZREM', KEYS[4], ARGV[1])
  redis.call('ZADD', KEYS[5], ARGV[12], ARGV[1])
elseif ARGV[11] ~= '0' then
  redis.call('ZADD', KEYS[4], ARGV[11], ARGV[1])
end
return 1
