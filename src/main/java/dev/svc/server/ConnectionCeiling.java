package dev.svc.server;

import dev.svc.log.Log;
import dev.svc.log.OncePer;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
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
  private static final String LIMIT_LINE = "Max open files";

  private final OncePer warning = new OncePer(Duration.ofMinutes(1));
  private final ServerConnector connector;

  ConnectionCeiling(int cap, ServerConnector connector) {
    super(cap, connector);
    this.connector = connector;
  }

  /**
   * The ceiling for this process, from Linux's {@code /proc/self/limits} and {@code /proc/self/fd}
   * (not the JDK's management beans, whose classes would cost the start-up several milliseconds):
   * empty where they cannot be read, or the limit is "unlimited".
   */
  static OptionalInt forThisProcess() {
    try {
      long limit = -1;
      for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
        if (line.startsWith(LIMIT_LINE)) {
          String soft = line.substring(LIMIT_LINE.length()).strip().split("\\s+")[0];
          limit = soft.equals("unlimited") ? -1 : Long.parseLong(soft);
        }
      }
      if (limit <= 0) {
        return OptionalInt.empty();
      }
      long open = 0;
      try (DirectoryStream<Path> descriptors = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
        for (Path ignored : descriptors) {
          open++;
        }
      }
      return OptionalInt.of(of(limit - open));
    } catch (IOException | RuntimeException e) {
      return OptionalInt.empty();
    }
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
