-- Appends an event to a task's list and wakes the listeners.
-- KEYS: events list. ARGV: entry ('0'|'1' terminal flag, then the JSON), channel, message.
-- Returns the event's number (the list's new length).
local n = redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('PUBLISH', ARGV[2], ARGV[3])
return n
