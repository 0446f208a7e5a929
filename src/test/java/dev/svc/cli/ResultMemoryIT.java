package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.testing.McpHttpClient;
import dev.svc.testing.ProjectFixture;
import dev.svc.testing.TestDatabase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Results too big for the heap, for real: svc runs as its own process with a 64 MiB heap and exits
 * on an {@code OutOfMemoryError}, as the launcher runs it, serving a PostgreSQL tool with the caps
 * turned off. Ten million rows alone, and eight calls of a million rows at once, must each get an
 * answer (a tool error for the ones too big) while the process lives on and serves the next call.
 */
class ResultMemoryIT {
  @RegisterExtension static final TestDatabase DATABASE = TestDatabase.postgres();
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @TempDir Path dir;

  @Test
  void bigResultsWithTheCapsOffAreRefusedAndTheServerLivesOn() throws Exception {
    Path project =
        ProjectFixture.write(
            dir.resolve("project"),
            """
            == .svc
            name: big
            tools:
              max_rows: 0
              max_bytes: 0
            == app/adapters/db.terse
            connector: postgres
            connection_string: "%s"
            == app/tools/numbers/config.terse
            description: The numbers from 1 to n.
            use: db
            statement: SELECT g FROM generate_series(1, {{ inputs.n }}) g
            inputs:
              n:
                type: int
                description: How many.
            """
                .formatted(DATABASE.connectionString()));
    try (SvcProcess svc =
        SvcProcess.serving(
            dir,
            dir.resolve("run"),
            Map.of(),
            List.of("-Xmx64m", "-XX:+UseSerialGC", "-XX:+ExitOnOutOfMemoryError"),
            "start",
            project.toString(),
            "-p",
            "0")) {
      McpHttpClient client = new McpHttpClient(svc.baseUrl());
      client.initialize();

      JsonNode alone = client.call("numbers", "{\"n\": 10000000}");
      assertThat(refusal(alone)).as(alone.toString()).contains("svc's ceiling");

      List<JsonNode> together = concurrently(client, 8, "{\"n\": 1000000}");
      assertThat(together)
          .allSatisfy(reply ->
              assertThat(refusal(reply))
                  .as(reply.toString())
                  .containsAnyOf("svc's ceiling", "the server is holding"));

      List<JsonNode> fitting = concurrently(client, 8, "{\"n\": 2000}");
      assertThat(fitting)
          .allSatisfy(reply -> {
            assertThat(reply.path("result").path("isError").asBoolean(true))
                .as(reply.toString())
                .isFalse();
            String text = reply.path("result").path("content").path(0).path("text").asString();
            assertThat(JSON.readTree(text).size()).isEqualTo(2000);
          });

      JsonNode next = client.call("numbers", "{\"n\": 3}");
      assertThat(next.path("result").path("isError").asBoolean(true)).as(next.toString()).isFalse();
      assertThat(svc.alive()).as(svc.err()).isTrue();
      assertThat(svc.stop()).isZero();
    }
  }

  /** The text of a tool error; fails when the reply is anything else. */
  private static String refusal(JsonNode reply) {
    assertThat(reply.path("result").path("isError").asBoolean(false)).as(reply.toString()).isTrue();
    return reply.path("result").path("content").path(0).path("text").asString();
  }

  private static List<JsonNode> concurrently(McpHttpClient client, int calls, String arguments)
      throws Exception {
    List<Future<JsonNode>> futures = new ArrayList<>();
    try (ExecutorService pool = Executors.newFixedThreadPool(calls)) {
      for (int i = 0; i < calls; i++) {
        futures.add(pool.submit(() -> client.call("numbers", arguments)));
      }
    }
    List<JsonNode> replies = new ArrayList<>();
    for (Future<JsonNode> future : futures) {
      replies.add(future.get());
    }
    return replies;
  }
}
