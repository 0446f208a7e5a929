package dev.svc.script;

import dev.svc.SvcException;

/**
 * An earlier call left the isolate unfit for another (it locked a property every call starts with,
 * such as {@code Error.prepareStackTrace}), found as this call began: nothing of this call ran, so
 * the pool closes the isolate and runs the call again on a fresh one.
 */
final class SpoiledIsolateException extends SvcException {
  SpoiledIsolateException() {
    super("an earlier call left the script isolate unfit for another; the call did not run");
  }
}
