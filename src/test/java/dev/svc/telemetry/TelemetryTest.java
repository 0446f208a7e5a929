package dev.svc.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TelemetryTest {
  @Test
  void theEndpointIsLoggedWithoutItsUserPasswordOrQuery() {
    assertThat(dev.svc.log.SafeUrls.shown("http://otuser:TopSecret@127.0.0.1:4318/v1?token=x", "-"))
        .isEqualTo("http://127.0.0.1:4318/v1");
    assertThat(dev.svc.log.SafeUrls.shown("default", "-")).isEqualTo("default");
  }

  @Test
  void theSdksComplaintLosesTheValuesOfSecretSettings() {
    Map<String, String> otel =
        Map.of(
            "OTEL_EXPORTER_OTLP_HEADERS", "Authorization=Bearer TopSecret-OtelHdr,brokenentry",
            "OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobufx");
    String message =
        "Invalid map property: otel.exporter.otlp.headers=Authorization=Bearer TopSecret-OtelHdr,"
            + "brokenentry; protocol http/protobufx";
    assertThat(Telemetry.withoutValues(message, otel))
        .doesNotContain("TopSecret")
        .contains("http/protobufx");
  }
}
