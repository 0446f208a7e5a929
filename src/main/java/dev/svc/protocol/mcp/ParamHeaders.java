package dev.svc.protocol.mcp;

import dev.svc.call.Headers;
import dev.svc.model.Input;
import dev.svc.model.Tool;
import java.math.BigDecimal;
import java.util.Optional;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * The {@code Mcp-Param-*} headers of a 2026-07-28 {@code tools/call}: an input with {@code header:}
 * (MCP {@code x-mcp-header}) has its value copied into {@code Mcp-Param-<header>} by the client, so
 * that gateways can route on it without reading the body. svc checks that the header is there
 * whenever the argument has a value, that it is sent once, and that it says the same (numbers
 * compared as numbers, so {@code 42}, {@code 42.0} and {@code 4.2e1} are equal; booleans as {@code
 * true}/{@code false}).
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
      if (headers.count(header) > 1) {
        return Optional.of(StandardHeaders.sentTwice(header, headers.count(header)));
      }
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

  /** A number as a header may write it: decimal, with an optional exponent, at most 100 chars. */
  private static final Pattern NUMBER =
      Pattern.compile("[+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[eE][+-]?[0-9]{1,4})?");

  private static boolean same(String header, JsonNode value) {
    if (value.isNumber()) {
      if (header.length() > 100 || !NUMBER.matcher(header).matches()) {
        return false;
      }
      return new BigDecimal(header).compareTo(value.decimalValue()) == 0;
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
