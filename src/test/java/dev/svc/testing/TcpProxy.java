package dev.svc.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback TCP forwarder a test can cut: {@link #cut} closes every connection and refuses new
 * ones (as a database that went away), {@link #resume} forwards again on the same port.
 */
public final class TcpProxy implements AutoCloseable {
  private final String host;
  private final int target;
  private final int port;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private volatile ServerSocket server;

  private TcpProxy(String host, int target) throws IOException {
    this.host = host;
    this.target = target;
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.port = server.getLocalPort();
    accept(server);
  }

  public static TcpProxy to(String host, int port) throws IOException {
    return new TcpProxy(host, port);
  }

  public int port() {
    return port;
  }

  private void accept(ServerSocket listening) {
    Thread.ofVirtual()
        .start(() -> {
          while (!listening.isClosed()) {
            try {
              Socket client = listening.accept();
              Socket upstream = new Socket(host, target);
              sockets.add(client);
              sockets.add(upstream);
              pipe(client, upstream);
              pipe(upstream, client);
            } catch (IOException e) {
              return;
            }
          }
        });
  }

  private void pipe(Socket from, Socket to) {
    Thread.ofVirtual()
        .start(() -> {
          try (InputStream in = from.getInputStream();
              OutputStream out = to.getOutputStream()) {
            in.transferTo(out);
          } catch (IOException e) {
            // cut
          } finally {
            closeQuietly(from);
            closeQuietly(to);
          }
        });
  }

  public void cut() throws IOException {
    server.close();
    for (Socket socket : sockets) {
      closeQuietly(socket);
    }
    sockets.clear();
  }

  public void resume() throws IOException {
    ServerSocket again = new ServerSocket();
    again.setReuseAddress(true);
    again.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    server = again;
    accept(again);
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // already closed
    }
  }

  @Override
  public void close() throws IOException {
    cut();
  }
}
