package dev.svc.protocol.mcp;

import dev.svc.auth.HmacSha256;
import dev.svc.json.Json;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Signs and opens MRTR {@code requestState} (2026-07-28): the client echoes it verbatim, so it is
 * attacker-controlled and carries an HMAC-SHA256 over its JSON. Made by {@link
 * SessionTokens#requestStates()}, with a key of its own derived from the session key.
 */
public final class RequestStates {
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

  /** Longest state accepted: answers of several rounds, well below any request body limit. */
  static final int MAX_CHARS = 1 << 20;

  private final byte[] key;

  RequestStates(byte[] key) {
    this.key = key.clone();
  }

  /** {@code payload} as a signed token. */
  String seal(ObjectNode payload) {
    String body = ENCODER.encodeToString(Json.MAPPER.writeValueAsBytes(payload));
    return body + "." + ENCODER.encodeToString(sign(body));
  }

  /** The payload of a token {@link #seal} made with this key; empty when forged or garbled. */
  Optional<ObjectNode> open(String token) {
    int dot = token.lastIndexOf('.');
    if (dot <= 0 || token.length() > MAX_CHARS) {
      return Optional.empty();
    }
    String body = token.substring(0, dot);
    try {
      byte[] signature = DECODER.decode(token.substring(dot + 1));
      if (!MessageDigest.isEqual(signature, sign(body))) {
        return Optional.empty();
      }
      JsonNode payload = Json.MAPPER.readTree(DECODER.decode(body));
      return payload instanceof ObjectNode object ? Optional.of(object) : Optional.empty();
    } catch (IllegalArgumentException | JacksonException e) {
      return Optional.empty();
    }
  }

  private byte[] sign(String body) {
    return HmacSha256.sign(key, body.getBytes(StandardCharsets.US_ASCII));
  }
}
