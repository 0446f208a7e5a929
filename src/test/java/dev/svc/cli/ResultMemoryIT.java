package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.testing.McpHttpClient;
import dev.svc.testing.ProjectFixture;
import dev.svc.testing.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
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
    try (SvcProcess svc = serve(project, "run", "-Xmx64m")) {
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

  @Test
  void answersBeingWrittenKeepTheirShareOfTheBudgetUntilTheyAreSent() throws Exception {
    // before: a result's share of the budget came back before its answer was made and sent, so
    // 128 answers of ~5 MB at once (each under the ceiling) held far more than the budget and
    // ended the process (a 256 MiB heap); a resource file's bytes were not counted at all
    Path project =
        ProjectFixture.write(
            dir.resolve("answers"),
            """
            == .svc
            name: answers
            tools:
              max_rows: 0
              max_bytes: 0
            == app/adapters/db.terse
            connector: sqlite
            connection_string: "file:./answers.db"
            == app/tools/rows/config.terse
            description: n rows of text.
            use: db
            statement: >-
              WITH RECURSIVE s(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM s WHERE g < {{ inputs.n }})
              SELECT g, 'some text to make the row longer' AS t FROM s
            inputs:
              n: {type: int, description: How many.}
            == app/resources/big/config.terse
            name: big
            uri: docs://big
            file: big.txt
            """);
    String line = "a line of the big file, one of many\n";
    Files.writeString(project.resolve("app/resources/big/big.txt"), line.repeat(400_000));
    try (SvcProcess svc = serve(project, "run-answers", "-Xmx256m")) {
      McpHttpClient client = new McpHttpClient(svc.baseUrl());
      client.initialize();

      List<Callable<JsonNode>> calls = new ArrayList<>();
      for (int i = 0; i < 128; i++) {
        calls.add(() -> client.call("rows", "{\"n\": 40000}"));
      }
      for (int i = 0; i < 32; i++) {
        calls.add(() -> client.request("resources/read", "{\"uri\":\"docs://big\"}"));
      }
      List<JsonNode> replies = new ArrayList<>();
      try (ExecutorService pool = Executors.newFixedThreadPool(calls.size())) {
        for (Future<JsonNode> reply : pool.invokeAll(calls)) {
          replies.add(reply.get());
        }
      }
      int answered = 0;
      for (JsonNode reply : replies) {
        JsonNode result = reply.path("result");
        if (result.has("contents")) {
          assertThat(result.path("contents").get(0).path("text").asString())
              .hasSize(line.length() * 400_000);
          answered++;
        } else if (result.has("content") && !result.path("isError").asBoolean()) {
          String text = result.path("content").path(0).path("text").asString();
          assertThat(JSON.readTree(text).size()).isEqualTo(40_000);
          answered++;
        } else if (result.has("content")) {
          // the reading of a result counts its rows, so a result can pass the ceiling while another
          // answer holds part of the budget
          assertThat(refusal(reply)).containsAnyOf("the server is holding", "svc's ceiling");
        } else {
          assertThat(reply.path("error").path("message").asString())
              .as(reply.toString())
              .contains("more than the room left in the")
              .contains("svc holds for results being answered");
        }
      }
      assertThat(answered).isPositive();
      assertThat(client.call("rows", "{\"n\": 3}").path("result").path("isError").asBoolean(true))
          .isFalse();
      assertThat(client.request("resources/read", "{\"uri\":\"docs://big\"}").has("result"))
          .isTrue();
      assertThat(svc.alive()).as(svc.err()).isTrue();
      assertThat(svc.stop()).isZero();
    }
  }

  /**
   * {@code svc start project} as its own process with a heap of {@code heap} that exits on an
   * {@code OutOfMemoryError}, as the launcher runs it.
   */
  private SvcProcess serve(Path project, String run, String heap) throws Exception {
    return SvcProcess.serving(
        dir,
        dir.resolve(run),
        Map.of(),
        List.of(heap, "-XX:+UseSerialGC", "-XX:+ExitOnOutOfMemoryError"),
        "start",
        project.toString(),
        "-p",
        "0");
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
