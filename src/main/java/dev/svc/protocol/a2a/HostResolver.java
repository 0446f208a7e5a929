package dev.svc.protocol.a2a;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/** Resolves the host names of push-notification URLs: {@link #SYSTEM}, or a test's own. */
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
