-- wrk script: MCP tools/call of get_item with ids cycling 1..1000, in an existing session, or
-- statelessly under MCP 2026-07-28 when MCP_SESSION is "2026-07-28" (the revision in params._meta
-- and the MCP-Protocol-Version, Mcp-Method and Mcp-Name headers; no session).
-- MCP_ARGUMENTS is the arguments object with %d where the id goes (default {"id":%d}).
-- MCP_BEARER, when set, is sent as the Authorization header (e.g. "Bearer eyJ…").
local counter = 0
local arguments = os.getenv("MCP_ARGUMENTS")
if arguments == nil or arguments == "" then
  arguments = '{"id":%d}'
end

local meta = ""

init = function(args)
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Accept"] = "application/json, text/event-stream"
  local bearer = os.getenv("MCP_BEARER")
  if bearer ~= nil and bearer ~= "" then
    wrk.headers["Authorization"] = bearer
  end
  local session = os.getenv("MCP_SESSION")
  if session == "2026-07-28" then
    wrk.headers["MCP-Protocol-Version"] = session
    wrk.headers["Mcp-Method"] = "tools/call"
    wrk.headers["Mcp-Name"] = "get_item"
    meta = ',"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",' ..
        '"io.modelcontextprotocol/clientCapabilities":{},' ..
        '"io.modelcontextprotocol/clientInfo":{"name":"wrk","version":"1"}}'
  elseif session ~= nil and session ~= "" then
    wrk.headers["Mcp-Session-Id"] = session
  end
end

request = function()
  counter = counter + 1
  local id = (counter % 1000) + 1
  local body = '{"jsonrpc":"2.0","id":' .. counter ..
      ',"method":"tools/call","params":{"name":"get_item","arguments":' ..
      string.format(arguments, id) .. meta .. '}}'
  return wrk.format("POST", "/mcp", nil, body)
end
