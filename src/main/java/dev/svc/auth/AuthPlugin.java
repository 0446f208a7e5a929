package dev.svc.auth;

import dev.svc.call.Headers;

/** Decides whether a call to a tool may go on. One instance per tool, policy already resolved. */
@FunctionalInterface
public interface AuthPlugin {
  AuthDecision authorize(Headers headers);
}
