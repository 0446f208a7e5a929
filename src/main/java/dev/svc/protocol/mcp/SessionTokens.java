package dev.svc.protocol.mcp;

import dev.svc.auth.HmacSha256;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;

/**
 * MCP session ids that any instance accepts: a self-describing payload (protocol version, issue
 * time, the client capabilities that let the server ask it something, a random nonce) signed with
 * HMAC-SHA256. Tokens of the first layout (no capabilities) stay valid: their sessions declared
 * none. Instances that share {@code SVC_SESSION_SECRET} accept each other's sessions, so no session
 * store is needed behind a load balancer.
 *
 * <p>With {@code server.auth}, a session belongs to the principal that initialized it: the owner's
 * id is signed along with the payload (not written in it), so the id verifies only for requests of
 * that principal, on any instance (MCP security best practices, "Session Hijacking": bind session
 * ids to user-specific information).
 */
public final class SessionTokens {
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

  /** Made on first use: seeding a SecureRandom at start-up costs tens of milliseconds. */
  private static final class Random {
    static final SecureRandom INSTANCE = new SecureRandom();
  }

  private final byte[] secret;

  public SessionTokens(byte[] secret) {
    this.secret = secret.clone();
  }

  /** Tokens signed with {@code configured} when set, else with a random per-process secret. */
  public static SessionTokens create(Optional<String> configured) {
    if (configured.isPresent() && !configured.get().isEmpty()) {
      return new SessionTokens(configured.get().getBytes(StandardCharsets.UTF_8));
    }
    byte[] random = new byte[32];
    Random.INSTANCE.nextBytes(random);
    return new SessionTokens(random);
  }

  /**
   * What a token says.
   *
   * @param clientCapabilities the capabilities among {@link ClientCapabilities#ASKABLE} the client
   *     declared in {@code initialize}
   */
  public record Claims(String protocolVersion, long issuedAtSeconds, ClientCapabilities client) {}

  public String issue(String protocolVersion, long nowSeconds) {
    return issue(protocolVersion, nowSeconds, ClientCapabilities.NONE);
  }

  public String issue(String protocolVersion, long nowSeconds, ClientCapabilities client) {
    return issue(protocolVersion, nowSeconds, client, Optional.empty());
  }

  /** A token that verifies only for {@code owner} (when given). */
  public String issue(
      String protocolVersion, long nowSeconds, ClientCapabilities client, Optional<String> owner) {
    byte[] nonce = new byte[9];
    Random.INSTANCE.nextBytes(nonce);
    String payload =
        "2."
            + protocolVersion
            + "."
            + nowSeconds
            + "."
            + client.flags()
            + "."
            + ENCODER.encodeToString(nonce);
    String body = ENCODER.encodeToString(payload.getBytes(StandardCharsets.UTF_8));
    return body + "." + ENCODER.encodeToString(sign(signed(body, owner)));
  }

  /**
   * The claims of a token this (or a sibling) instance signed, written exactly as it was issued;
   * empty when forged, garbled or spelled otherwise.
   */
  public Optional<Claims> verify(String token) {
    return verify(token, Optional.empty());
  }

  /**
   * The claims of a token signed for {@code owner}; empty when forged, garbled, or signed for
   * another owner (or for none when one is given, and the other way round).
   */
  public Optional<Claims> verify(String token, Optional<String> owner) {
    int dot = token.lastIndexOf('.');
    if (dot <= 0 || token.length() > 512) {
      return Optional.empty();
    }
    String body = token.substring(0, dot);
    // the signature as issued, compared as text: base64 has other spellings of the same bytes
    // (padding, the unused low bits of the last character), and an id is the key that ends a
    // session, so another spelling of an ended session's id would be a new, live session
    byte[] given = token.substring(dot + 1).getBytes(StandardCharsets.US_ASCII);
    byte[] expected =
        ENCODER.encodeToString(sign(signed(body, owner))).getBytes(StandardCharsets.US_ASCII);
    if (!MessageDigest.isEqual(given, expected)) {
      return Optional.empty();
    }
    String[] parts;
    try {
      parts = new String(DECODER.decode(body), StandardCharsets.UTF_8).split("\\.");
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    boolean first = parts.length == 4 && parts[0].equals("1");
    if (!first && !(parts.length == 5 && parts[0].equals("2"))) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          new Claims(
              parts[1],
              Long.parseLong(parts[2]),
              first ? ClientCapabilities.NONE : ClientCapabilities.ofFlags(parts[3])));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /**
   * The signer of MRTR {@code requestState} (2026-07-28), with a key derived from this one's for
   * that purpose alone: instances that share the session key accept each other's states.
   */
  public RequestStates requestStates() {
    return new RequestStates(
        HmacSha256.sign(secret, "svc request state".getBytes(StandardCharsets.US_ASCII)));
  }

  /** What is signed: the body, and the owner after a line break (a body holds none). */
  private static String signed(String body, Optional<String> owner) {
    return owner.map(o -> body + "\n" + o).orElse(body);
  }

  private byte[] sign(String body) {
    byte[] full = HmacSha256.sign(secret, body.getBytes(StandardCharsets.UTF_8));
    return Arrays.copyOf(full, 16);
  }
}
