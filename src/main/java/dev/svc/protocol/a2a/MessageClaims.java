package dev.svc.protocol.a2a;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The key under which a store remembers a received {@code messageId}: a SHA-256 of the scope (agent
 * and principal) and the id, so that it has one size whatever the client sent (an id of 512
 * characters, a long token subject) and the same id from another principal or for another agent is
 * another key. A2A v1 makes {@code messageId} the client's identifier of a message; svc reads a
 * second send of the same id in the same scope as a retry of the first (docs/agents.md "Retries").
 */
final class MessageClaims {
  private MessageClaims() {}

  static String key(TaskStore.Scope scope, String messageId) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256")
              .digest(
                  (scope.agent() + "\u0000" + scope.principal().id() + "\u0000" + messageId)
                      .getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
