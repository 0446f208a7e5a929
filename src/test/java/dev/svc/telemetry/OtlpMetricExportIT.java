package dev.svc.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.svc.cli.Instance;
import dev.svc.testing.McpHttpClient;
import dev.svc.testing.RunningProject;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With {@code OTEL_METRICS_EXPORTER=otlp}, svc's metrics reach an OTLP endpoint over http/protobuf:
 * a collector stand-in on port 0 receives {@code POST /v1/metrics}.
 */
class OtlpMetricExportIT {
  private static final String PROJECT =
      """
      == .svc
      name: exported
      == app/adapters/db.terse
      connector: sqlite
      connection_string: ":memory:"
      == app/tools/exported_item/config.terse
      description: One item.
      use: db
      statement: SELECT {{ inputs.id }} AS id
      inputs:
        id: {type: int}
      """;

  /** A request the collector stand-in received. */
  private record Received(String method, String path, String contentType, byte[] body) {}

  @TempDir Path dir;
  private final BlockingQueue<Received> received = new LinkedBlockingQueue<>();
  private final List<String> paths = new CopyOnWriteArrayList<>();
  private HttpServer collector;

  @BeforeEach
  void startCollector() throws IOException {
    collector = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    collector.createContext(
        "/",
        exchange -> {
          try (exchange) {
            paths.add(exchange.getRequestURI().getPath());
            received.add(
                new Received(
                    exchange.getRequestMethod(),
                    exchange.getRequestURI().getPath(),
                    exchange.getRequestHeaders().getFirst("Content-Type"),
                    exchange.getRequestBody().readAllBytes()));
            // an empty ExportMetricsServiceResponse
            exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, -1);
          }
        });
    collector.start();
  }

  @AfterEach
  void stop() {
    Telemetry.shutdown();
    collector.stop(0);
  }

  @Test
  void metricsAreExportedOverOtlpHttpProtobufWhenAskedFor() throws Exception {
    Telemetry.Export export =
        Telemetry.configure(
            Map.of(
                "OTEL_METRICS_EXPORTER", "otlp",
                "OTEL_TRACES_EXPORTER", "none",
                "OTEL_EXPORTER_OTLP_ENDPOINT",
                    "http://127.0.0.1:" + collector.getAddress().getPort(),
                "OTEL_METRIC_EXPORT_INTERVAL", "200"),
            "exported",
            Optional.of("1.0.0"));
    assertThat(export).isEqualTo(new Telemetry.Export(false, true));

    try (Instance instance = RunningProject.start(dir, PROJECT)) {
      McpHttpClient client = new McpHttpClient(instance.baseUrl());
      client.initialize();
      assertThat(client.call("exported_item", "{\"id\": 3}").path("result").path("isError"))
          .hasToString("false");

      Received metrics = awaitExportNaming("svc.tool.call.duration");
      assertThat(metrics.method()).isEqualTo("POST");
      assertThat(metrics.path()).isEqualTo("/v1/metrics");
      assertThat(metrics.contentType()).isEqualTo("application/x-protobuf");
      // protobuf strings are plain UTF-8 on the wire: the names are readable without decoding
      String body = new String(metrics.body(), StandardCharsets.ISO_8859_1);
      assertThat(body).contains("exported_item", "service.name", "exported");
    }
    assertThat(paths).contains("/v1/metrics").doesNotContain("/v1/traces");
  }

  @Test
  void anEndpointAloneExportsTracesAndMetricsAsTheDocsShow() throws Exception {
    Telemetry.Export export =
        Telemetry.configure(
            Map.of(
                "OTEL_EXPORTER_OTLP_ENDPOINT",
                "http://127.0.0.1:" + collector.getAddress().getPort(),
                "OTEL_METRIC_EXPORT_INTERVAL",
                "200",
                "OTEL_BSP_SCHEDULE_DELAY",
                "50"),
            "exported",
            Optional.empty());
    assertThat(export).isEqualTo(new Telemetry.Export(true, true));

    try (Instance instance = RunningProject.start(dir, PROJECT)) {
      McpHttpClient client = new McpHttpClient(instance.baseUrl());
      client.initialize();
      client.call("exported_item", "{\"id\": 4}");
      Received spans = awaitExportNaming("execute_tool exported_item");
      assertThat(spans.path()).isEqualTo("/v1/traces");
      assertThat(spans.contentType()).isEqualTo("application/x-protobuf");
      assertThat(awaitExportNaming("svc.tool.call.duration").path()).isEqualTo("/v1/metrics");
    }
  }

  /** Waits (up to 10 s) for an export whose body holds {@code name}: the first may precede it. */
  private Received awaitExportNaming(String name) throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < until) {
      Received next = received.poll(200, TimeUnit.MILLISECONDS);
      if (next != null && new String(next.body(), StandardCharsets.ISO_8859_1).contains(name)) {
        return next;
      }
    }
    throw new AssertionError("no export naming " + name + " reached the collector");
  }
}
