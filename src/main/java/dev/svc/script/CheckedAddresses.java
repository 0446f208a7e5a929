package dev.svc.script;

import dev.svc.net.AddressPolicy;
import dev.svc.net.HostResolver;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.SocketAddressResolver;

/**
 * How the fetch client finds where to connect: the host is resolved once, every address it resolves
 * to is checked against {@code scripts.fetch} ({@link AddressPolicy}), and the client connects to
 * exactly those addresses, so a name that answers differently a moment later (DNS rebinding) gains
 * nothing. The client asks for every new connection, so each redirect's target is checked the same
 * way. A refusal fails the connection with a {@link FetchRefusedException}.
 */
final class CheckedAddresses implements SocketAddressResolver {
  private final AddressPolicy policy;
  private final HostResolver resolver;

  CheckedAddresses(AddressPolicy policy, HostResolver resolver) {
    this.policy = policy;
    this.resolver = resolver;
  }

  @Override
  public void resolve(
      String host,
      int port,
      Map<String, Object> context,
      Promise<List<InetSocketAddress>> promise) {
    // a name lookup blocks: never on the client's selector or a caller's carrier
    Thread.ofVirtual().name("svc-fetch-resolve").start(() -> settle(host, port, promise));
  }

  private void settle(String host, int port, Promise<List<InetSocketAddress>> promise) {
    String bare =
        host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    switch (policy.resolve(bare, resolver)) {
      case AddressPolicy.Resolution.Allowed allowed ->
          promise.succeeded(
              allowed.addresses().stream().map(a -> new InetSocketAddress(a, port)).toList());
      case AddressPolicy.Resolution.Refused refused ->
          promise.failed(
              new FetchRefusedException(
                  refused.byAddress()
                      ? refused.reason()
                          + "; scripts' fetch reaches public addresses unless scripts.fetch in"
                          + " .svc allows more"
                      : refused.reason()));
      case AddressPolicy.Resolution.Unresolved unresolved ->
          promise.failed(new UnknownHostException(unresolved.reason()));
    }
  }
}
