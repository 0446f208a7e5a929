package dev.svc.auth;

import dev.svc.call.Caller;
import dev.svc.call.Headers;

/** Decides whether a call to a tool may go on. One instance per tool, policy already resolved. */
@FunctionalInterface
public interface AuthPlugin {
  /** Decides on the caller's headers; a script plugin also logs to the caller's client log. */
  AuthDecision authorize(Caller caller);

  /**
   * Whether the credentials in {@code headers} make no caller of their own, told without running a
   * script: {@code api_key} and {@code jwt} would refuse them (the key is missing or not the key;
   * the token does not verify); a custom plugin has not admitted them lately (it must run to tell,
   * so until it has, they are taken for a guess). A rate limit then counts the call for its
   * address, not for credentials made up to look like a caller of their own.
   */
  default boolean takesForAGuess(Headers headers) {
    return false;
  }
}
