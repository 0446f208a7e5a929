package dev.svc.server;

import dev.svc.log.Log;
import dev.svc.telemetry.SvcMetrics;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.io.Connection;

/**
 * Caps the connections one client address holds open at once ({@code
 * server.limits.connections_per_client}): a connection beyond the cap is closed as soon as it
 * opens, before anything is read from it. Slow clients can then tie up only so many connections
 * each, however many they open.
 */
final class ConnectionsPerClient implements Connection.Listener {
  private static final Log LOG = Log.tagged("http");

  private final int cap;
  private final ConcurrentHashMap<InetAddress, Integer> open = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Connection, InetAddress> clients = new ConcurrentHashMap<>();

  ConnectionsPerClient(int cap) {
    this.cap = cap;
  }

  @Override
  public void onOpened(Connection connection) {
    if (!(connection.getEndPoint().getRemoteSocketAddress() instanceof InetSocketAddress remote)
        || remote.getAddress() == null) {
      return;
    }
    InetAddress client = remote.getAddress();
    clients.put(connection, client);
    int count = open.merge(client, 1, Integer::sum);
    if (count > cap) {
      SvcMetrics.HTTP_REFUSALS.increment("connections_per_client");
      LOG.debug(
          "connection refused: too many from one client",
          "client",
          client.getHostAddress(),
          "limit",
          cap);
      connection.getEndPoint().close();
    }
  }

  @Override
  public void onClosed(Connection connection) {
    InetAddress client = clients.remove(connection);
    if (client != null) {
      open.computeIfPresent(client, (c, count) -> count <= 1 ? null : count - 1);
    }
  }
}
