-- The stored bodies of tasks, in the order asked, up to a budget of bytes: the first always, then
-- each while the bodies so far are under ARGV[1]; '' for one that is gone. Stops at the first that
-- does not fit, so a read of many large tasks never loads them all.
-- KEYS: the task-key prefix. ARGV: the budget in bytes, then task ids.
local budget = tonumber(ARGV[1])
local out = {}
local total = 0
for i = 2, #ARGV do
  if total >= budget and #out > 0 then
    break
  end
  local body = redis.call('HGET', KEYS[1] .. ARGV[i], 'body') or ''
  out[#out + 1] = body
  total = total + #body
end
return out
