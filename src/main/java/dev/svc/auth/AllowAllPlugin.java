package dev.svc.auth;

import dev.svc.call.Headers;

/** {@code allow_all}: lets every call through. Not a security boundary. */
public final class AllowAllPlugin implements AuthPlugin {
  @Override
  public AuthDecision authorize(Headers headers) {
    return new AuthDecision.Allow("anonymous");
  }
}
