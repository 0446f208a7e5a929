package dev.svc.server;

import dev.svc.SvcException;

/** The HTTP server could not start (port in use, bad address). */
public final class ServerStartException extends SvcException {
  public ServerStartException(String message, Throwable cause) {
    super(message, cause);
  }
}
