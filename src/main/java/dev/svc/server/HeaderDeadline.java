package dev.svc.server;

import dev.svc.log.Log;
import dev.svc.telemetry.SvcMetrics;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
 */
final class HeaderDeadline implements AutoCloseable {
  private static final Log LOG = Log.tagged("http");

  private final List<? extends AbstractConnector> connectors;
  private final long timeoutNanos;
  private final ScheduledExecutorService sweeper;

  /** What one sweep saw of a connection receiving headers: its request count, and since when. */
  private record Receiving(long messagesIn, long sinceNanos) {}

  /** Only touched by the sweeper thread; weak, so closed connections need no removal. */
  private final Map<HttpConnection, Receiving> receiving = new WeakHashMap<>();

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
    if (!parser.inHeaderState() || parser.isStart()) {
      receiving.remove(http);
      return;
    }
    long messages = http.getMessagesIn();
    Receiving seen = receiving.get(http);
    if (seen == null || seen.messagesIn() != messages) {
      receiving.put(http, new Receiving(messages, now));
    } else if (now - seen.sinceNanos() > timeoutNanos) {
      receiving.remove(http);
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
