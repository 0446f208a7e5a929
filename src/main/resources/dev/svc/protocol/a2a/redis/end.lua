-- Ends a task that is not terminal yet, in the caller's scope: terminal status, the terminal
-- event after every event any snapshot has seen, lease dropped, kept until retention.
-- KEYS: task hash, leases zset, finished zset, events list, scope zset.
-- ARGV: agent, principal, state, status ms, body, terminal event, now ms, only-unleased ('1'|'0'),
--       task id, channel. Returns the terminal event's number, or 0 when not ended here.
local t = redis.call('HMGET', KEYS[1], 'terminal', 'agent', 'principal')
if not t[1] or t[1] == '1' or t[2] ~= ARGV[1] or t[3] ~= ARGV[2] then return 0 end
if ARGV[8] == '1' then
  local lease = redis.call('ZSCORE', KEYS[2], ARGV[9])
  if lease and tonumber(lease) > tonumber(ARGV[7]) then return 0 end
end
local seq = redis.call('RPUSH', KEYS[4], ARGV[6])
local saved = tonumber(redis.call('HGET', KEYS[1], 'seq') or '0')
while seq <= saved do
  -- the task was saved with more events than its list holds (an append failed): the
  -- terminal event must come after what any snapshot has seen
  seq = redis.call('RPUSH', KEYS[4], ARGV[6])
end
redis.call('HSET', KEYS[1], 'state', ARGV[3], 'terminal', '1', 'status_ms', ARGV[4],
  'body', ARGV[5], 'seq', seq, 'updated', ARGV[7])
redis.call('ZREM', KEYS[2], ARGV[9])
redis.call('ZADD', KEYS[3], ARGV[7], ARGV[9])
redis.call('ZADD', KEYS[5], ARGV[4], ARGV[9])
redis.call('PUBLISH', ARGV[10], 'e ' .. ARGV[9])
return seq
