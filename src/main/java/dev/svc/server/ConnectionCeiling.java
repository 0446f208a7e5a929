package dev.svc.server;

import com.sun.management.UnixOperatingSystemMXBean;
import dev.svc.log.Log;
import dev.svc.log.OncePer;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.OptionalInt;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.ServerConnector;

/**
 * Caps the client connections open at once at three quarters of the file descriptors the process
 * has left when it starts (its limit less those open then: jars, the JVM's own), so that however
 * many clients connect, a quarter stays for the server's own work: database connections, model and
 * webhook calls, files. At the cap the server stops accepting (Jetty's {@link
 * NetworkConnectionLimit}): new connections wait in the kernel's queue until one closes, and the
 * log says so at most once a minute. Without it, clients from enough addresses took every
 * descriptor: each further accept failed with "Too many open files" (a log line each), and the
 * server could open no connection of its own until they left.
 */
final class ConnectionCeiling extends NetworkConnectionLimit {
  private static final Log LOG = Log.tagged("http");
  private final OncePer warning = new OncePer(Duration.ofMinutes(1));
  private final ServerConnector connector;

  ConnectionCeiling(int cap, ServerConnector connector) {
    super(cap, connector);
    this.connector = connector;
  }

  /** The ceiling for this process: empty where its descriptor limit cannot be read. */
  static OptionalInt forThisProcess() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean unix) {
      long limit = unix.getMaxFileDescriptorCount();
      if (limit > 0) {
        return OptionalInt.of(of(limit - unix.getOpenFileDescriptorCount()));
      }
    }
    return OptionalInt.empty();
  }

  /** Three quarters of {@code descriptors} left, at least 64. */
  static int of(long descriptors) {
    return Math.clamp(descriptors / 4 * 3, 64, Integer.MAX_VALUE);
  }

  /** Accepts again below the cap, unless the drain has closed the listening socket meanwhile. */
  @Override
  protected void unlimit() {
    if (connector.isOpen()) {
      super.unlimit();
    }
  }

  @Override
  protected void limit() {
    super.limit();
    if (warning.due()) {
      LOG.warn(
          "connections wait: "
              + getMaxNetworkConnectionCount()
              + " are open, the most this process takes (three quarters of the file descriptors"
              + " it had left at start; raise `ulimit -n` for more)");
    }
  }
}
