package dev.svc.protocol.mcp;

import dev.svc.call.ClientText;
import dev.svc.protocol.HttpCall;
import dev.svc.protocol.jsonrpc.JsonRpcMessage;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The standard headers of an MCP 2026-07-28 request, which mirror its body so that gateways can
 * route without reading it: {@code MCP-Protocol-Version} (the {@code _meta} revision), {@code
 * Mcp-Method} (every request) and {@code Mcp-Name} ({@code params.name} of {@code tools/call} and
 * {@code prompts/get}, {@code params.uri} of {@code resources/read}). A mismatch is {@code -32020},
 * and so is a header sent more than once: RFC 9110 §5.3 makes repeated field lines one comma-joined
 * value, which a gateway may read as either, so svc runs none of them. The {@code Mcp-Param-*}
 * headers of tool arguments are {@link ParamHeaders}.
 */
final class StandardHeaders {
  /** Methods that name their target in {@code Mcp-Name}, and the parameter it mirrors. */
  private static final Map<String, String> NAMED =
      Map.of("tools/call", "name", "prompts/get", "name", "resources/read", "uri");

  private StandardHeaders() {}

  /** Why the standard headers do not match the body, if they do not. */
  static Optional<String> mismatch(
      HttpCall http, JsonRpcMessage.Request request, RequestMeta meta) {
    for (String header : new String[] {"MCP-Protocol-Version", "Mcp-Method", "Mcp-Name"}) {
      int sent = http.headers().count(header);
      if (sent > 1) {
        return Optional.of(sentTwice(header, sent));
      }
    }
    Optional<String> version = http.headers().first(McpServer.VERSION_HEADER).map(String::strip);
    if (version.isEmpty()) {
      return Optional.of("the MCP-Protocol-Version header is required");
    }
    if (!version.get().equals(meta.protocolVersion())) {
      return Optional.of(
          "MCP-Protocol-Version is "
              + ClientText.shown(version.get())
              + " but params._meta names "
              + ClientText.shown(meta.protocolVersion()));
    }
    Optional<String> method = http.headers().first(McpServer.METHOD_HEADER);
    if (method.isEmpty()) {
      return Optional.of("the Mcp-Method header is required");
    }
    Optional<String> decodedMethod = McpHeaderValue.decode(method.get());
    if (decodedMethod.isEmpty()) {
      return Optional.of("Mcp-Method is not a valid header value");
    }
    if (!decodedMethod.get().equals(request.method())) {
      return Optional.of(
          "Mcp-Method is "
              + ClientText.shown(decodedMethod.get())
              + " but the body's method is "
              + ClientText.shown(request.method()));
    }
    String field = NAMED.get(request.method());
    if (field == null) {
      return Optional.empty();
    }
    JsonNode body = request.params().get(field);
    if (body == null || !body.isString()) {
      return Optional.empty(); // the method's own validation names the missing parameter
    }
    Optional<String> name = http.headers().first(McpServer.NAME_HEADER);
    if (name.isEmpty()) {
      return Optional.of("the Mcp-Name header is required for " + request.method());
    }
    Optional<String> decodedName = McpHeaderValue.decode(name.get());
    if (decodedName.isEmpty()) {
      return Optional.of("Mcp-Name is not a valid header value");
    }
    if (!decodedName.get().equals(body.asString())) {
      return Optional.of("Mcp-Name does not match params." + field);
    }
    return Optional.empty();
  }

  /** The mismatch of a header sent {@code times} times. */
  static String sentTwice(String header, int times) {
    return header + " is sent " + times + " times; send it once";
  }
}
