package dev.svc.auth;

import dev.svc.call.VerifiedToken;

/** What {@link TokenVerifier} found out about one access token. */
public sealed interface TokenCheck {
  /** {@link Unavailable#summary()} when the issuer's signing keys cannot be fetched. */
  String KEYS_OUT_OF_REACH = "the authorization server's keys are out of reach";

  /** {@link Unavailable#summary()} when the issuer cannot be asked about a token (RFC 7662). */
  String INTROSPECTION_OUT_OF_REACH =
      "the authorization server cannot be asked about it (token introspection)";

  /** Signature, issuer, audience, lifetime and type are good. */
  record Verified(VerifiedToken token) implements TokenCheck {}

  /**
   * The token is not acceptable (HTTP 401, {@code invalid_token}); {@code reason} names why without
   * quoting the token, and is safe to show the caller.
   */
  record Rejected(String reason) implements TokenCheck {}

  /**
   * The token cannot be checked now (HTTP 503): the issuer's keys cannot be fetched, or the issuer
   * cannot be asked about it. {@code reason} is for the log (it names URLs and statuses, never the
   * token or a secret); {@code summary} is what the caller is told.
   */
  record Unavailable(String reason, String summary) implements TokenCheck {
    public Unavailable(String reason) {
      this(reason, KEYS_OUT_OF_REACH);
    }
  }
}
