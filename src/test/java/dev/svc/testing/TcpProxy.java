package dev.svc.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A loopback TCP forwarder a test can cut: {@link #cut} closes every connection and refuses new
 * ones (as a database that went away), {@link #resume} forwards again on the same port; or freeze:
 * {@link #freeze} holds every byte with the connections open (a database that stops answering).
 */
public final class TcpProxy implements AutoCloseable {
  private final String host;
  private final int target;
  private final int port;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private volatile ServerSocket server;
  private final Object frozenLock = new Object();
  private boolean frozen;

  private TcpProxy(String host, int target) throws IOException {
    this.host = host;
    this.target = target;
    this.server = listenOutsideTheEphemeralRange();
    this.port = server.getLocalPort();
    accept(server);
  }

  /**
   * A listening socket on a port the kernel never gives to an outgoing connection. While the proxy
   * is cut, a client that keeps reconnecting to its port could otherwise be given that very port as
   * its own and connect to itself (TCP's simultaneous open), holding the port so that {@link
   * #resume} cannot bind it again.
   */
  private static ServerSocket listenOutsideTheEphemeralRange() throws IOException {
    int ephemeralLow = 32768;
    try {
      // read as a stream: Files.readString trusts the size procfs reports and stops early
      String range;
      try (InputStream in =
          Files.newInputStream(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))) {
        range = new String(in.readAllBytes(), StandardCharsets.US_ASCII).strip();
      }
      ephemeralLow = Integer.parseInt(range.split("\\s+")[0]);
    } catch (IOException | RuntimeException e) {
      // not Linux: the usual range
    }
    int low = 10_000;
    if (ephemeralLow - low >= 1_000) {
      for (int attempt = 0; attempt < 100; attempt++) {
        ServerSocket socket = new ServerSocket();
        socket.setReuseAddress(true);
        try {
          socket.bind(
              new InetSocketAddress(
                  InetAddress.getLoopbackAddress(),
                  ThreadLocalRandom.current().nextInt(low, ephemeralLow)),
              50);
          return socket;
        } catch (IOException taken) {
          socket.close();
        }
      }
    }
    return new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
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
              sockets.add(client);
              Socket upstream = new Socket(host, target);
              sockets.add(upstream);
              if (listening.isClosed()) {
                // cut while this one was being connected: it must not outlive the cut, or it
                // holds the port that resume() binds again
                closeQuietly(client);
                closeQuietly(upstream);
                return;
              }
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
            byte[] buffer = new byte[16 * 1024];
            for (int n; (n = in.read(buffer)) >= 0; ) {
              awaitThaw();
              out.write(buffer, 0, n);
              out.flush();
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          } catch (IOException e) {
            // cut
          } finally {
            closeQuietly(from);
            closeQuietly(to);
          }
        });
  }

  /**
   * Holds every byte from now on, both ways, keeping the connections open and accepting new ones: a
   * server that stops answering without closing anything (frozen, or a network dropping packets).
   * {@link #thaw} passes what was held on.
   */
  public void freeze() {
    synchronized (frozenLock) {
      frozen = true;
    }
  }

  public void thaw() {
    synchronized (frozenLock) {
      frozen = false;
      frozenLock.notifyAll();
    }
  }

  private void awaitThaw() throws InterruptedException {
    synchronized (frozenLock) {
      while (frozen) {
        frozenLock.wait();
      }
    }
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
    // a connection closed by the cut may take a moment to let go of the port
    for (int attempt = 0; ; attempt++) {
      try {
        again.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        break;
      } catch (java.net.BindException e) {
        if (attempt >= 50) {
          again.close();
          throw e;
        }
        try {
          Thread.sleep(100);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          again.close();
          throw e;
        }
      }
    }
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
    thaw();
    cut();
  }
}
