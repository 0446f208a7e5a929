package dev.svc.protocol.mcp;

import dev.svc.protocol.jsonrpc.JsonRpcException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * MCP {@code InitializeRequestParams}: the revision the client asks for, what it can do, and who it
 * says it is. Every revision svc serves with sessions (2024-11-05 to 2025-11-25) requires all three
 * with these types; a client that sends something else gets {@code -32602} naming the field, rather
 * than a session negotiated on a guess (a {@code protocolVersion} of {@code 20251125} used to
 * become the preferred revision, a {@code capabilities} of {@code "all"} no capability at all).
 * Fields svc does not read ({@code clientInfo.title}, {@code icons}, {@code _meta}, unknown ones)
 * are not checked.
 *
 * @param protocolVersion as sent; {@link ProtocolVersions#negotiate} picks the answer
 * @see <a
 *     href="https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#initialization">MCP
 *     2025-11-25 initialization</a>
 */
record InitializeParams(String protocolVersion, ClientCapabilities capabilities) {

  /**
   * Reads the params of an {@code initialize} request.
   *
   * @throws JsonRpcException {@code -32602} naming the first field that is missing or of the wrong
   *     type
   */
  static InitializeParams of(ObjectNode params) {
    String version = requiredString(params, "protocolVersion", "params.protocolVersion");
    JsonNode capabilities = params.get("capabilities");
    if (capabilities == null || !capabilities.isObject()) {
      throw wrong("params.capabilities", "an object (`{}` for none)", capabilities);
    }
    JsonNode clientInfo = params.get("clientInfo");
    if (clientInfo == null || !clientInfo.isObject()) {
      throw wrong("params.clientInfo", "an object with `name` and `version`", clientInfo);
    }
    requiredString(clientInfo, "name", "params.clientInfo.name");
    requiredString(clientInfo, "version", "params.clientInfo.version");
    return new InitializeParams(version, ClientCapabilities.of(capabilities));
  }

  private static String requiredString(JsonNode parent, String field, String path) {
    JsonNode value = parent.get(field);
    if (value == null || !value.isString()) {
      throw wrong(path, "a string", value);
    }
    return value.asString();
  }

  /** Says what the field must be and what it was, never echoing the client's value. */
  private static JsonRpcException wrong(String path, String expected, JsonNode value) {
    String found = value == null ? "missing" : "a JSON " + kind(value);
    return JsonRpcException.invalidParams(
        "Invalid params: `" + path + "` must be " + expected + " (it is " + found + ")");
  }

  private static String kind(JsonNode value) {
    if (value.isNull()) {
      return "null";
    }
    if (value.isObject()) {
      return "object";
    }
    if (value.isArray()) {
      return "array";
    }
    if (value.isNumber()) {
      return "number";
    }
    if (value.isBoolean()) {
      return "boolean";
    }
    return "string";
  }
}
