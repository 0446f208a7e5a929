package dev.svc.script;

import java.io.IOException;

/**
 * A fetch (or a redirect it followed) would have connected to an address that {@code scripts.fetch}
 * does not allow. An {@link IOException} because it fails a connection attempt inside the HTTP
 * client; {@code reason} says which host and why ({@code 10.1.2.3, a private address}).
 */
final class FetchRefusedException extends IOException {
  private final String reason;

  FetchRefusedException(String reason) {
    super(reason);
    this.reason = reason;
  }

  String reason() {
    return reason;
  }
}
