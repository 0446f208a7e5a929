package dev.svc.runtime;

import dev.svc.SvcException;
import dev.svc.call.ClientText;

/** No tool has the name a caller asked for. */
public final class UnknownToolException extends SvcException {
  public UnknownToolException(String name) {
    super("Unknown tool: " + ClientText.shown(name));
  }
}
