package dev.svc.log;

import java.net.URI;
import java.net.URISyntaxException;

/** URLs as svc writes them into logs and messages: no user, password or query, where tokens go. */
public final class SafeUrls {
  private SafeUrls() {}

  /**
   * {@code url} as scheme, host, port and path; {@code placeholder} when it is not a URL that can
   * be cut so (it might hold a secret anywhere).
   */
  public static String shown(String url, String placeholder) {
    try {
      URI uri = new URI(url);
      if (uri.getHost() == null) {
        return url.contains("@") || url.contains("?") ? placeholder : url;
      }
      return uri.getScheme()
          + "://"
          + uri.getHost()
          + (uri.getPort() < 0 ? "" : ":" + uri.getPort())
          + (uri.getRawPath() == null ? "" : uri.getRawPath());
    } catch (URISyntaxException e) {
      return placeholder;
    }
  }
}
