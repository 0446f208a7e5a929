package dev.svc.server;

import dev.svc.log.Log;
import dev.svc.telemetry.SvcMetrics;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.WeakHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.internal.HttpConnection;

/**
 * Closes connections whose request headers take longer than {@code server.limits.header_timeout} to
 * arrive. Jetty's idle timeout restarts with every byte, so a client sending one header byte every
 * few seconds (slowloris) would otherwise hold its connection forever.
 *
 * <p>Jetty has no such deadline of its own; this looks at each connection's parser a few times a
 * second (a request whose first byte came but whose headers are not complete) instead of setting a
 * timer per request, which would cost every request. The parser is only reachable through Jetty's
 * {@code internal.HttpConnection}; HttpEdgeIT pins the behaviour when Jetty is upgraded. A
 * connection is closed between {@code timeout} and {@code timeout + period} after its headers
 * began. Reading the parser's state from this thread is a benign race: a stale read delays a close
 * by one period at most.
 *
 * <p>A request's head begins with its first byte, even when that is a blank line: Jetty's parser
 * skips the empty lines that may precede a request line (RFC 9112 §2.2) and stays at the start of a
 * request, so a client sending {@code \r\n} every few seconds looked idle between requests to this
 * check and held its connection forever. A connection at the start of a request whose byte count
 * grows while no request arrives is therefore receiving a head too.
 */
final class HeaderDeadline implements AutoCloseable {
  private static final Log LOG = Log.tagged("http");

  private final List<? extends AbstractConnector> connectors;
  private final long timeoutNanos;
  private final ScheduledExecutorService sweeper;

  /**
   * What the sweeps saw of a connection between two requests or receiving a request's head: its
   * request count, the bytes it had received, and since when its head has been arriving (empty
   * while it waits for a request's first byte).
   */
  private record Seen(long messagesIn, long bytesIn, OptionalLong receivingSince) {
    static Seen waiting(long messagesIn, long bytesIn) {
      return new Seen(messagesIn, bytesIn, OptionalLong.empty());
    }

    static Seen receiving(long messagesIn, long bytesIn, long sinceNanos) {
      return new Seen(messagesIn, bytesIn, OptionalLong.of(sinceNanos));
    }
  }

  /** Only touched by the sweeper thread; weak, so closed connections need no removal. */
  private final Map<HttpConnection, Seen> seen = new WeakHashMap<>();

  HeaderDeadline(List<? extends AbstractConnector> connectors, Duration timeout) {
    this.connectors = List.copyOf(connectors);
    this.timeoutNanos = timeout.toNanos();
    this.sweeper =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("svc-http-header-deadline").factory());
    long periodMillis = Math.clamp(timeout.toMillis() / 4, 50, 1000);
    sweeper.scheduleAtFixedRate(this::sweep, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
  }

  private void sweep() {
    try {
      long now = System.nanoTime();
      for (AbstractConnector connector : connectors) {
        for (EndPoint endPoint : connector.getConnectedEndPoints()) {
          if (endPoint.getConnection() instanceof HttpConnection http) {
            check(http, endPoint, now);
          }
        }
      }
    } catch (RuntimeException e) {
      LOG.warn("header deadline check failed", "error", String.valueOf(e.getMessage()));
    }
  }

  private void check(HttpConnection http, EndPoint endPoint, long now) {
    HttpParser parser = http.getParser();
    if (!parser.inHeaderState()) {
      seen.remove(http);
      return;
    }
    long messages = http.getMessagesIn();
    long bytes = http.getBytesIn();
    Seen before = seen.get(http);
    if (before == null || before.messagesIn() != messages) {
      seen.put(
          http,
          parser.isStart() ? Seen.waiting(messages, bytes) : Seen.receiving(messages, bytes, now));
    } else if (before.receivingSince().isEmpty()) {
      if (!parser.isStart() || bytes != before.bytesIn()) {
        seen.put(http, Seen.receiving(messages, bytes, now)); // a head (or blank lines) began
      }
    } else if (now - before.receivingSince().getAsLong() > timeoutNanos) {
      seen.remove(http);
      SvcMetrics.HTTP_REFUSALS.increment("header_timeout");
      LOG.debug(
          "connection closed: request headers too slow",
          "client",
          String.valueOf(endPoint.getRemoteSocketAddress()),
          "timeout_s",
          timeoutNanos / 1_000_000_000.0);
      endPoint.close();
    }
  }

  @Override
  public void close() {
    sweeper.shutdownNow();
  }
}
