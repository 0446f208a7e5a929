-- A task in the caller's scope with its event count and lease, or nil.
-- KEYS: task hash, leases zset. ARGV: agent, principal, task id.
-- Returns {body, seq, lease until ms or '0'}.
local t = redis.call('HMGET', KEYS[1], 'agent', 'principal', 'body', 'seq')
if not t[1] or t[1] ~= ARGV[1] or t[2] ~= ARGV[2] then return nil end
local lease = redis.call('ZSCORE', KEYS[2], ARGV[3])
return {t[3], t[4], lease or '0'}
