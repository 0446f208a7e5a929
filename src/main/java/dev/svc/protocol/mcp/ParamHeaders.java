package dev.svc.protocol.mcp;

import dev.svc.call.Headers;
import dev.svc.model.Input;
import dev.svc.model.Tool;
import java.math.BigInteger;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The {@code Mcp-Param-*} headers of a 2026-07-28 {@code tools/call}: an input with {@code header:}
 * (MCP {@code x-mcp-header}) has its value copied into {@code Mcp-Param-<header>} by the client, so
 * that gateways can route on it without reading the body. svc checks that the header is there
 * whenever the argument has a value, and that it says the same (integers compared as numbers,
 * booleans as {@code true}/{@code false}).
 */
final class ParamHeaders {
  static final String PREFIX = "Mcp-Param-";

  private ParamHeaders() {}

  /** Why the headers do not mirror the arguments of a call of {@code tool}, if they do not. */
  static Optional<String> mismatch(Headers headers, Tool tool, JsonNode arguments) {
    for (Input input : tool.inputs()) {
      if (input.header().isEmpty()) {
        continue;
      }
      String header = PREFIX + input.header().get();
      JsonNode value = arguments == null ? null : arguments.get(input.name());
      if (value == null || value.isNull()) {
        continue; // no value, no header expected
      }
      Optional<String> sent = headers.first(header);
      if (sent.isEmpty()) {
        return Optional.of(
            "the " + header + " header is required when `" + input.name() + "` has a value");
      }
      Optional<String> decoded = McpHeaderValue.decode(sent.get());
      if (decoded.isEmpty()) {
        return Optional.of(header + " is not a valid header value");
      }
      if (!same(decoded.get(), value)) {
        return Optional.of(header + " does not match arguments." + input.name());
      }
    }
    return Optional.empty();
  }

  private static boolean same(String header, JsonNode value) {
    if (value.isIntegralNumber()) {
      try {
        return new BigInteger(header).equals(value.bigIntegerValue());
      } catch (NumberFormatException e) {
        return false;
      }
    }
    if (value.isBoolean()) {
      return header.equals(value.asBoolean() ? "true" : "false");
    }
    if (value.isString()) {
      return header.equals(value.asString());
    }
    return header.equals(value.toString());
  }
}
