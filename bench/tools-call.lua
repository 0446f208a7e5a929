-- wrk script: MCP tools/call of get_item with ids cycling 1..1000, in an existing session.
-- MCP_ARGUMENTS is the arguments object with %d where the id goes (default {"id":%d}).
local counter = 0
local arguments = os.getenv("MCP_ARGUMENTS")
if arguments == nil or arguments == "" then
  arguments = '{"id":%d}'
end

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
  local body = '{"jsonrpc":"2.0","id":' .. counter ..
      ',"method":"tools/call","params":{"name":"get_item","arguments":' ..
      string.format(arguments, id) .. '}}'
  return wrk.format("POST", "/mcp", nil, body)
end
