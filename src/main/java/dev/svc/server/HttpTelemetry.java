package dev.svc.server;

import dev.svc.telemetry.Span;
import dev.svc.telemetry.SpanKind;
import dev.svc.telemetry.SvcMetrics;
import dev.svc.telemetry.Telemetry;
import dev.svc.telemetry.Tracer;
import java.util.Optional;
import org.eclipse.jetty.server.Request;

/**
 * The span and the duration metric of one HTTP request (OpenTelemetry HTTP server conventions):
 * span {@code POST /mcp}, parent from the W3C {@code traceparent}/{@code tracestate} headers;
 * {@code http.route} is one of svc's routes, never the raw path.
 */
final class HttpTelemetry {
  /** Name of the Jetty connector of a separate metrics port. */
  static final String METRICS_CONNECTOR = "svc-metrics";

  private HttpTelemetry() {}

  /** A request being served. */
  record Exchange(Span span, String method, String route, long startNanos) {
    void end(int status) {
      if (span.isRecording()) {
        span.set("http.response.status_code", status);
        if (status >= 500) {
          span.fail(Integer.toString(status), "");
        }
      }
      span.end();
      // "200" is one string: the series is found by identity, with no new string per request
      SvcMetrics.HTTP_DURATION.recordSince(
          startNanos, method, route, status == 200 ? "200" : Integer.toString(status));
    }
  }

  static Exchange begin(Request request, String path) {
    long started = System.nanoTime();
    String method = method(request.getMethod());
    String route = route(path);
    Tracer tracer = Telemetry.tracer();
    if (!tracer.enabled()) {
      return new Exchange(Span.NOOP, method, route, started);
    }
    Span span =
        tracer.startRemote(
            SpanKind.SERVER,
            route.isEmpty() ? method : method + " " + route,
            key -> Optional.ofNullable(request.getHeaders().get(key)),
            false);
    if (span.isRecording()) {
      span.set("http.request.method", method)
          .set("url.path", path)
          .set("url.scheme", request.getHttpURI().getScheme())
          .set("network.protocol.version", version(request))
          .set("server.port", Request.getLocalPort(request));
      if (!route.isEmpty()) {
        span.set("http.route", route);
      }
      String agent = request.getHeaders().get("User-Agent");
      if (agent != null) {
        span.set("user_agent.original", agent);
      }
      String client = Request.getRemoteAddr(request);
      if (client != null) {
        span.set("client.address", client);
      }
    }
    return new Exchange(span, method, route, started);
  }

  static boolean isMetricsConnector(Request request) {
    return METRICS_CONNECTOR.equals(request.getConnectionMetaData().getConnector().getName());
  }

  /** svc's route of a path; empty when none matches (the label is then left out). */
  static String route(String path) {
    if (path.equals("/mcp") || path.equals("/mcp/")) {
      return "/mcp";
    }
    if (path.startsWith("/agent/")) {
      return "/agent/{name}";
    }
    return switch (path) {
      case "/heartbeat", "/ready", "/metrics", "/.well-known/agent-card.json" -> path;
      default -> "";
    };
  }

  private static String method(String method) {
    return switch (method) {
      case "GET", "POST", "DELETE", "OPTIONS", "HEAD", "PUT", "PATCH" -> method;
      default -> "_OTHER";
    };
  }

  private static String version(Request request) {
    String protocol = request.getConnectionMetaData().getProtocol();
    int slash = protocol.indexOf('/');
    return slash < 0 ? protocol : protocol.substring(slash + 1);
  }
}
