package dev.svc.auth;

import dev.svc.call.VerifiedToken;
import java.util.Optional;

/** What an auth plugin decided about one call. */
public sealed interface AuthDecision {

  /**
   * The call may go on.
   *
   * @param identity a stable, non-secret id of the caller (e.g. a key fingerprint), used to keep
   *     cached results of different callers apart and in audit lines
   * @param token the access token the plugin verified or checked ({@code jwt}): its claims are what
   *     {@code {{ auth.claims.<name> }}} binds and what scripts see as {@code auth}
   */
  record Allow(String identity, Optional<VerifiedToken> token) implements AuthDecision {
    public Allow(String identity) {
      this(identity, Optional.empty());
    }
  }

  /** The call is refused; {@code reason} is safe to show the caller. */
  record Deny(String reason) implements AuthDecision {}
}
