package dev.svc.net;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * Resolves the host names of the URLs svc calls out to (push notifications, scripts' {@code
 * fetch}): {@link #SYSTEM}, or a test's own.
 */
@FunctionalInterface
public interface HostResolver {
  HostResolver SYSTEM = host -> List.of(InetAddress.getAllByName(host));

  /**
   * Every address of {@code host}.
   *
   * @throws UnknownHostException when it has none
   */
  List<InetAddress> resolve(String host) throws UnknownHostException;
}
