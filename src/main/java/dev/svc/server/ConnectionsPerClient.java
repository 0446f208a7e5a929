package dev.svc.server;

import dev.svc.log.Log;
import dev.svc.net.ClientAddress;
import dev.svc.telemetry.SvcMetrics;
import java.net.InetSocketAddress;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.io.Connection;

/**
 * Caps the connections one client address holds open at once ({@code
 * server.limits.connections_per_client}): a connection beyond the cap is closed as soon as it
 * opens, before anything is read from it. Slow clients can then tie up only so many connections
 * each, however many they open. An IPv6 client is its {@code /64} network ({@link ClientAddress}),
 * so a host cannot open the cap again from each of its addresses.
 */
final class ConnectionsPerClient implements Connection.Listener {
  private static final Log LOG = Log.tagged("http");

  private final int cap;
  private final ConcurrentHashMap<String, Integer> open = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Connection, String> clients = new ConcurrentHashMap<>();

  ConnectionsPerClient(int cap) {
    this.cap = cap;
  }

  @Override
  public void onOpened(Connection connection) {
    if (!(connection.getEndPoint().getRemoteSocketAddress() instanceof InetSocketAddress remote)
        || remote.getAddress() == null) {
      return;
    }
    String client = ClientAddress.of(remote.getAddress());
    clients.put(connection, client);
    int count = open.merge(client, 1, Integer::sum);
    if (count > cap) {
      SvcMetrics.HTTP_REFUSALS.increment("connections_per_client");
      LOG.debug("connection refused: too many from one client", "client", client, "limit", cap);
      connection.getEndPoint().close();
    }
  }

  @Override
  public void onClosed(Connection connection) {
    String client = clients.remove(connection);
    if (client != null) {
      open.computeIfPresent(client, (c, count) -> count <= 1 ? null : count - 1);
    }
  }
}
