package dev.svc.auth;

import dev.svc.call.VerifiedToken;

/** What {@link TokenVerifier} found out about one access token. */
public sealed interface TokenCheck {

  /** Signature, issuer, audience, lifetime and type are good. */
  record Verified(VerifiedToken token) implements TokenCheck {}

  /**
   * The token is not acceptable (HTTP 401, {@code invalid_token}); {@code reason} names why without
   * quoting the token, and is safe to show the caller.
   */
  record Rejected(String reason) implements TokenCheck {}

  /**
   * The token cannot be checked now, because the issuer's keys cannot be fetched (HTTP 503); {@code
   * reason} is safe to show the caller.
   */
  record Unavailable(String reason) implements TokenCheck {}
}
