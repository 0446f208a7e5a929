package dev.svc.agent;

import dev.svc.SvcException;

/**
 * A model call failed: the provider refused it, was unreachable, or answered something unusable.
 * The message is safe to show to the A2A client (no keys, no request bodies).
 */
public class ModelException extends SvcException {
  public ModelException(String message) {
    super(message);
  }

  public ModelException(String message, Throwable cause) {
    super(message, cause);
  }
}
