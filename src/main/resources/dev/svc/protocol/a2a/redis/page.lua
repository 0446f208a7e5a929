-- One ListTasks page of a scope, filtered and paged here so that only the page's ids leave Redis
-- (a scope may hold many thousands of tasks).
-- KEYS: the scope zset (task ids by status ms).
-- ARGV: the task-key prefix, then the filters ('' for none): context id, state, status after (ms),
-- the cursor's status ms and task id (the page starts after it), and the page size.
-- Returns: the number of matching tasks, the number of them from the cursor on, then the page's ids
-- (newest status first; ties by task id, descending).
local prefix, context, state = ARGV[1], ARGV[2], ARGV[3]
local after = tonumber(ARGV[4])
local cursorMs, cursorId = tonumber(ARGV[5]), ARGV[6]
local size = tonumber(ARGV[7])
local ids = redis.call('ZREVRANGEBYSCORE', KEYS[1], '+inf', '-inf')
local total, fromCursor, page = 0, 0, {}
for _, id in ipairs(ids) do
  local f = redis.call('HMGET', prefix .. id, 'context', 'state', 'status_ms')
  local ms = tonumber(f[3])
  if f[1] and (context == '' or f[1] == context) and (state == '' or f[2] == state)
      and (after == nil or (ms ~= nil and ms > after)) then
    total = total + 1
    if cursorMs == nil or ms < cursorMs or (ms == cursorMs and id < cursorId) then
      fromCursor = fromCursor + 1
      if #page < size then
        table.insert(page, id)
      end
    end
  end
end
local out = {total, fromCursor}
for _, id in ipairs(page) do
  table.insert(out, id)
end
return out
