package dev.svc.cli;

import dev.svc.SvcException;

/** An upgrade archive that cannot be installed; the message is shown to the user as it is. */
final class UpgradeException extends SvcException {
  UpgradeException(String message) {
    super(message);
  }
}
