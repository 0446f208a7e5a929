package dev.svc.call;

import dev.svc.SvcException;

/**
 * A request to the client got no usable answer: refused (no client, no capability), answered with
 * an error, malformed, or not in time. The message is one line a caller may be shown.
 */
public final class ClientRequestException extends SvcException {
  public ClientRequestException(String message) {
    super(message);
  }
}
