package dev.svc.auth;

import dev.svc.call.Caller;

/** Decides whether a call to a tool may go on. One instance per tool, policy already resolved. */
@FunctionalInterface
public interface AuthPlugin {
  /** Decides on the caller's headers; a script plugin also logs to the caller's client log. */
  AuthDecision authorize(Caller caller);
}
