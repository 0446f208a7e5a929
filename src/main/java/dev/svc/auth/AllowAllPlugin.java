package dev.svc.auth;

import dev.svc.call.Caller;

/** {@code allow_all}: lets every call through. Not a security boundary. */
public final class AllowAllPlugin implements AuthPlugin {
  @Override
  public AuthDecision authorize(Caller caller) {
    return new AuthDecision.Allow("anonymous");
  }
}
