package dev.svc.runtime;

import dev.svc.SvcException;

/**
 * A tool call failed for a reason the caller cannot fix (database unreachable, pool exhausted, a
 * bug). The message is short and safe; details are in the log under the request id.
 */
public final class ToolServerException extends SvcException {
  public ToolServerException(String message, Throwable cause) {
    super(message, cause);
  }
}
