export default () =>
  mcp.content(mcp.resource("test://embedded-resource", "This is an embedded resource content.", "text/plain"));
