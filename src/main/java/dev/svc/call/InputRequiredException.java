package dev.svc.call;

import dev.svc.SvcException;

/**
 * A call (2026-07-28) stopped because it needs answers from its client that come with the retried
 * request: the protocol edge answers it with an {@code input_required} result made from the
 * requests its {@link ClientRequests} recorded. Not a failure: nothing of the call is reported.
 */
public final class InputRequiredException extends SvcException {
  public InputRequiredException() {
    super("the call needs input from the client");
  }
}
