package dev.svc.auth;

import dev.svc.call.Caller;
import dev.svc.call.Headers;

/** Decides whether a call to a tool may go on. One instance per tool, policy already resolved. */
@FunctionalInterface
public interface AuthPlugin {
  /** Decides on the caller's headers; a script plugin also logs to the caller's client log. */
  AuthDecision authorize(Caller caller);

  /**
   * Whether {@link #authorize} would refuse a call carrying {@code headers}, told without running a
   * script ({@code api_key}: the key is missing or not the key; {@code jwt}: the token does not
   * verify). A rate limit then counts the call for its address, not for credentials made up to look
   * like a caller of their own. False when it cannot be told so: {@link #authorize} decides.
   */
  default boolean refusesOutright(Headers headers) {
    return false;
  }
}
