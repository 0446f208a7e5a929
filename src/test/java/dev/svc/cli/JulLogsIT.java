package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.testing.McpHttpClient;
import dev.svc.testing.ProjectFixture;
import dev.svc.testing.TestDatabase;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What libraries log through {@code java.util.logging} reaches svc's logger, not standard error as
 * plain text: a {@code mysql} adapter makes MySQL Connector/J ask for OpenTelemetry's global
 * instance, which prints {@code INFO: AutoConfiguredOpenTelemetrySdk found on classpath but
 * automatic configuration is disabled} through the JDK's console handler.
 */
class JulLogsIT {
  @RegisterExtension static final TestDatabase DATABASE = TestDatabase.mysql();
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @TempDir Path dir;

  private Path project() {
    return ProjectFixture.write(
        dir.resolve("project"),
        """
        == .svc
        name: jul
        == app/adapters/db.terse
        connector: mysql
        connection_string: "%s"
        == app/tools/one/config.terse
        description: One.
        use: db
        statement: SELECT 1 AS one
        """
            .formatted(DATABASE.connectionString()));
  }

  @Test
  void startingAMysqlProjectPrintsNoPlainTextLineFromOpenTelemetry() throws Exception {
    Path project = project();
    SvcProcess svc = SvcProcess.starting(dir, project, "--log-format", "text");
    try (svc) {
      call(svc);
      assertThat(svc.stop()).isZero();
    }
    String output = svc.out() + svc.err();
    assertThat(output)
        .contains("adapter ready adapter=db connector=mysql")
        .doesNotContain("AutoConfiguredOpenTelemetrySdk", "GlobalOpenTelemetry")
        .doesNotContainPattern("(?m)^(INFO|WARNING|SEVERE): ");
  }

  @Test
  void atDebugLevelTheOpenTelemetryNoticeIsAStructuredLine() throws Exception {
    Path project = project();
    SvcProcess svc = SvcProcess.starting(dir, project, "--log-level", "4", "--log-format", "json");
    try (svc) {
      call(svc);
      assertThat(svc.stop()).isZero();
    }
    List<JsonNode> lines = svc.err().lines().map(JSON::readTree).toList(); // every line is JSON
    assertThat(lines)
        .filteredOn(
            l -> l.path("logger").asString().equals("io.opentelemetry.api.GlobalOpenTelemetry"))
        .singleElement()
        .satisfies(line -> {
          assertThat(line.path("level").asString()).isEqualTo("debug");
          assertThat(line.path("tag").asString()).isEqualTo("telemetry");
          assertThat(line.path("msg").asString()).contains("AutoConfiguredOpenTelemetrySdk");
        });
  }

  private static void call(SvcProcess svc) {
    McpHttpClient client = new McpHttpClient(svc.baseUrl());
    client.initialize();
    assertThat(client.call("one", "{}").path("result").path("structuredContent").toString())
        .isEqualTo("{\"rows\":[{\"one\":1}]}");
  }
}
