package dev.svc.auth;

/** What an auth plugin decided about one call. */
public sealed interface AuthDecision {

  /**
   * The call may go on.
   *
   * @param identity a stable, non-secret id of the caller (e.g. a key fingerprint), used to keep
   *     cached results of different callers apart and in audit lines
   */
  record Allow(String identity) implements AuthDecision {}

  /** The call is refused; {@code reason} is safe to show the caller. */
  record Deny(String reason) implements AuthDecision {}
}
