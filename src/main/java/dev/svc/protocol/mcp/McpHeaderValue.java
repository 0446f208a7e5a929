package dev.svc.protocol.mcp;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

/**
 * The value of an MCP 2026-07-28 request header that mirrors the body ({@code Mcp-Method}, {@code
 * Mcp-Name}, {@code Mcp-Param-*}): plain printable ASCII, or {@code =?base64?…?=} holding UTF-8
 * when the value is not plain (non-ASCII, control characters, surrounding spaces). Surrounding
 * whitespace is not part of a value (HTTP's optional whitespace).
 *
 * @see <a
 *     href="https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http">MCP
 *     Streamable HTTP, request metadata</a>
 */
final class McpHeaderValue {
  private static final String PREFIX = "=?base64?";
  private static final String SUFFIX = "?=";

  private McpHeaderValue() {}

  /** The value the header stands for; empty when it is not a valid encoding. */
  static Optional<String> decode(String raw) {
    String value = raw.strip();
    if (value.startsWith(PREFIX) && value.endsWith(SUFFIX) && value.length() >= 11) {
      String encoded = value.substring(PREFIX.length(), value.length() - SUFFIX.length());
      if (encoded.length() % 4 != 0) {
        return Optional.empty(); // padding is required (Java's decoder would accept it missing)
      }
      byte[] bytes;
      try {
        bytes = Base64.getDecoder().decode(encoded);
      } catch (IllegalArgumentException e) {
        return Optional.empty();
      }
      try {
        return Optional.of(
            StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes))
                .toString());
      } catch (CharacterCodingException e) {
        return Optional.empty();
      }
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x20 && c != '\t' || c > 0x7e) {
        return Optional.empty();
      }
    }
    return Optional.of(value);
  }
}
