-- wrk script: a mixed MCP load in an existing session, cycling three kinds of request:
-- tools/call of the SQL tool get_item, tools/call of the handler tool hello, prompts/get of greet.
local counter = 0

init = function(args)
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Accept"] = "application/json, text/event-stream"
  local session = os.getenv("MCP_SESSION")
  if session ~= nil and session ~= "" then
    wrk.headers["Mcp-Session-Id"] = session
  end
end

request = function()
  counter = counter + 1
  local id = (counter % 1000) + 1
  local kind = counter % 3
  local body
  if kind == 0 then
    body = '{"jsonrpc":"2.0","id":' .. counter ..
        ',"method":"tools/call","params":{"name":"get_item","arguments":{"id":' .. id .. '}}}'
  elseif kind == 1 then
    body = '{"jsonrpc":"2.0","id":' .. counter ..
        ',"method":"tools/call","params":{"name":"hello","arguments":{"name":"item ' .. id .. '"}}}'
  else
    body = '{"jsonrpc":"2.0","id":' .. counter ..
        ',"method":"prompts/get","params":{"name":"greet","arguments":{"name":"item ' .. id .. '"}}}'
  end
  return wrk.format("POST", "/mcp", nil, body)
end
