package dev.svc.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Records of {@code java.util.logging} as lines of svc's log: level, tag, logger, parameters. */
class JulBridgeTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final JulBridge.Sink sink = new JulBridge.Sink();

  @AfterEach
  void restore() {
    LogSink.configure(Level.INFO, LogFormat.TEXT, TagFilter.ALL, System.err, Optional.empty());
  }

  private void configure(Level level) {
    LogSink.configure(
        level,
        LogFormat.JSON,
        TagFilter.ALL,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        Optional.empty());
  }

  private static LogRecord record(java.util.logging.Level level, String logger, String message) {
    LogRecord record = new LogRecord(level, message);
    record.setLoggerName(logger);
    return record;
  }

  private JsonNode onlyLine() {
    String[] lines = out.toString(StandardCharsets.UTF_8).strip().split("\n");
    assertThat(lines).hasSize(1);
    return JsonMapper.builder().build().readTree(lines[0]);
  }

  @Test
  void anInfoRecordIsADebugLineTaggedByItsLibrary() {
    configure(Level.DEBUG);
    sink.publish(
        record(
            java.util.logging.Level.INFO,
            "io.opentelemetry.api.GlobalOpenTelemetry",
            "AutoConfiguredOpenTelemetrySdk found on classpath but automatic configuration is"
                + " disabled."));
    JsonNode line = onlyLine();
    assertThat(line.path("level").asString()).isEqualTo("debug");
    assertThat(line.path("tag").asString()).isEqualTo("telemetry");
    assertThat(line.path("logger").asString())
        .isEqualTo("io.opentelemetry.api.GlobalOpenTelemetry");
    assertThat(line.path("msg").asString()).startsWith("AutoConfiguredOpenTelemetrySdk found");
  }

  @Test
  void atTheDefaultLevelInfoRecordsAreNotWritten() {
    configure(Level.INFO);
    sink.publish(record(java.util.logging.Level.INFO, "io.opentelemetry.api.X", "hello"));
    sink.publish(record(java.util.logging.Level.FINE, "com.example", "detail"));
    assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
  }

  @Test
  void severeAndWarningKeepTheirLevelAndParametersAreFilledIn() {
    configure(Level.INFO);
    LogRecord record =
        record(
            java.util.logging.Level.SEVERE,
            "io.opentelemetry.exporter.internal.http.HttpExporter",
            "Failed to export {0}. Server responded with {1}");
    record.setParameters(new Object[] {"spans", 503});
    record.setThrown(new IllegalStateException("unavailable"));
    sink.publish(record);
    JsonNode line = onlyLine();
    assertThat(line.path("level").asString()).isEqualTo("error");
    assertThat(line.path("msg").asString())
        .isEqualTo("Failed to export spans. Server responded with 503");
    assertThat(line.path("error").asString()).isEqualTo("unavailable");

    out.reset();
    sink.publish(record(java.util.logging.Level.WARNING, "com.example.lib", "careful"));
    assertThat(onlyLine().path("level").asString()).isEqualTo("warn");
    assertThat(JulBridge.level(java.util.logging.Level.CONFIG)).isEqualTo(Level.DEBUG);
    assertThat(JulBridge.level(java.util.logging.Level.FINE)).isNull();
  }
}
