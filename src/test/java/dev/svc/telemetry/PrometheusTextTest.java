package dev.svc.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Prometheus text format: names, units, labels, buckets and escaping. */
class PrometheusTextTest {
  @Test
  void histogramsHaveCumulativeBucketsSumAndCount() {
    Histogram h =
        new Histogram("demo.duration", "s", "A demo.", new double[] {0.01, 0.1}, List.of("a.b"));
    h.record(0.005, "x");
    h.record(0.05, "x");
    h.record(3, "x");
    String text = PrometheusText.write(List.of(h));
    assertThat(text)
        .contains("# HELP demo_duration_seconds A demo.\n# TYPE demo_duration_seconds histogram\n")
        .contains("demo_duration_seconds_bucket{a_b=\"x\",le=\"0.01\"} 1\n")
        .contains("demo_duration_seconds_bucket{a_b=\"x\",le=\"0.1\"} 2\n")
        .contains("demo_duration_seconds_bucket{a_b=\"x\",le=\"+Inf\"} 3\n")
        .contains("demo_duration_seconds_sum{a_b=\"x\"} 3.055\n")
        .contains("demo_duration_seconds_count{a_b=\"x\"} 3\n");
  }

  @Test
  void countersEndInTotalAndEmptyLabelValuesAreLeftOut() {
    Counter c = new Counter("demo.hits", "{call}", "Hits.", List.of("tool", "error.type"));
    c.increment("a\"b\\c", "");
    c.add(2, "t", "tool_error");
    String text = PrometheusText.write(List.of(c));
    assertThat(text)
        .contains("# TYPE demo_hits_total counter\n")
        .contains("demo_hits_total{tool=\"a\\\"b\\\\c\"} 1\n")
        .contains("demo_hits_total{tool=\"t\",error_type=\"tool_error\"} 2\n");
  }

  @Test
  void gaugesReadTheirSourcesAtEachCollectionUntilRemoved() throws Exception {
    Gauge g = new Gauge("demo.usage", "By", "Bytes.", List.of());
    int[] value = {5};
    AutoCloseable source = g.register(sink -> sink.sample(value[0]));
    assertThat(PrometheusText.write(List.of(g))).contains("demo_usage_bytes 5\n");
    value[0] = 7;
    assertThat(PrometheusText.write(List.of(g))).contains("demo_usage_bytes 7\n");
    source.close();
    assertThat(PrometheusText.write(List.of(g))).doesNotContain("demo_usage_bytes 7");
  }

  @Test
  void everyMetricOfSvcHasAPrometheusNameInTheDocs() throws Exception {
    SvcMetrics.HTTP_DURATION.name();
    String docs = java.nio.file.Files.readString(java.nio.file.Path.of("docs/observability.md"));
    for (MetricFamily family : Metrics.families()) {
      if (family.name().startsWith("demo.")) {
        continue;
      }
      assertThat(docs).as(family.name()).contains("`" + PrometheusText.name(family) + "`");
    }
  }

  @Test
  void exportIsOnlyWhatTheOtelVariablesAskFor() {
    assertThat(Telemetry.Export.of(Map.of()).any()).isFalse();
    assertThat(Telemetry.Export.of(Map.of("OTEL_SERVICE_NAME", "x")).any()).isFalse();
    assertThat(Telemetry.Export.of(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318")))
        .isEqualTo(new Telemetry.Export(true, true));
    assertThat(
            Telemetry.Export.of(
                Map.of(
                    "OTEL_EXPORTER_OTLP_ENDPOINT",
                    "http://c:4318",
                    "OTEL_METRICS_EXPORTER",
                    "none")))
        .isEqualTo(new Telemetry.Export(true, false));
    assertThat(Telemetry.Export.of(Map.of("OTEL_TRACES_EXPORTER", "otlp")))
        .isEqualTo(new Telemetry.Export(true, false));
    assertThat(
            Telemetry.Export.of(
                Map.of("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "http://c:4318/v1/metrics")))
        .isEqualTo(new Telemetry.Export(false, true));
    assertThat(
            Telemetry.Export.of(
                    Map.of(
                        "OTEL_EXPORTER_OTLP_ENDPOINT",
                        "http://c:4318",
                        "OTEL_SDK_DISABLED",
                        "true"))
                .any())
        .isFalse();
  }

  @Test
  void withoutExportTheTracerIsTheNoOp() {
    assertThat(Telemetry.configure(Map.of(), "svc", java.util.Optional.empty()).any()).isFalse();
    assertThat(Telemetry.tracer()).isSameAs(Tracer.NOOP);
    assertThat(Telemetry.tracer().start(SpanKind.INTERNAL, "x")).isSameAs(Span.NOOP);
  }
}
