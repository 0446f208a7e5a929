package dev.svc.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.call.Caller;
import dev.svc.call.Headers;
import dev.svc.json.Json;
import dev.svc.model.Agent;
import dev.svc.model.Model;
import dev.svc.runtime.ProjectRuntime;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * An agent's model sees a cut result as an MCP client does: the whole envelope, with the cursor it
 * can pass back for the next page; an uncut result as the rows alone. A real SQLite file.
 */
class AgentResultCapsTest {
  static final String PROJECT =
      """
      == .svc
      name: shop
      tools:
        max_rows: 2
      == app/adapters/db.terse
      connector: sqlite
      connection_string: "file:./shop.db"
      == app/tools/items/config.terse
      description: Items above a price.
      use: db
      statement: SELECT name FROM items WHERE price > {{ inputs.min }} ORDER BY name
      inputs:
        min: {type: float}
      == app/agents/clerk/config.terse
      instruction: Answer about items.
      model: {provider: openai, model: m}
      """;

  @TempDir Path directory;
  ProjectRuntime runtime;
  AgentLoopTest.ScriptedClient client = new AgentLoopTest.ScriptedClient();
  Model model;

  @BeforeEach
  void start() throws SQLException {
    model = ProjectFixture.model(directory, PROJECT);
    try (Connection db =
            DriverManager.getConnection("jdbc:sqlite:" + directory.resolve("shop.db"));
        java.sql.Statement seed = db.createStatement()) {
      seed.executeUpdate("CREATE TABLE items (name TEXT, price REAL)");
      seed.executeUpdate("INSERT INTO items VALUES ('a', 1), ('b', 2), ('c', 3)");
    }
    runtime = ProjectFixture.runtimeWithoutScripts(model, directory);
  }

  @AfterEach
  void stop() {
    runtime.close();
  }

  /** What the model was given as the answer of each call, in order. */
  private List<Turn.ToolResult> answers(ToolCall... calls) {
    for (ToolCall call : calls) {
      client.then("", call);
    }
    client.then("done");
    Agent agent = model.agent("clerk").orElseThrow();
    new AgentLoop(agent, client, new AgentTools(agent, runtime.tools()), 8)
        .run(
            List.of(new Turn.User("items?")),
            new Caller("req-1", Headers.NONE, Optional.empty()),
            false,
            s -> {});
    return client.requests.getLast().turns().stream()
        .filter(Turn.ToolResult.class::isInstance)
        .map(Turn.ToolResult.class::cast)
        .toList();
  }

  private static ToolCall call(String id, String arguments) {
    return new ToolCall(id, "items", Json.MAPPER.readTree(arguments));
  }

  @Test
  void theModelSeesTheTruncationSignalAndCanFollowTheCursor() {
    Turn.ToolResult first = answers(call("c1", "{\"min\": 0}")).getFirst();
    JsonNode envelope = first.result();
    assertThat(first.failed()).isFalse();
    assertThat(envelope.path("rows").toString()).isEqualTo("[{\"name\":\"a\"},{\"name\":\"b\"}]");
    assertThat(envelope.path("truncated").asBoolean()).isTrue();
    assertThat(envelope.path("returned_rows").asInt()).isEqualTo(2);
    assertThat(envelope.path("limit").asString()).isEqualTo("max_rows");
    // the same JSON an MCP client reads as the text of the call
    String cursor = envelope.path("next_cursor").asString();
    assertThat(Json.MAPPER.writeValueAsString(envelope))
        .isEqualTo(
            "{\"rows\":[{\"name\":\"a\"},{\"name\":\"b\"}],\"truncated\":true,\"returned_rows\":2,"
                + "\"limit\":\"max_rows\",\"next_cursor\":\""
                + cursor
                + "\"}");

    client = new AgentLoopTest.ScriptedClient();
    Turn.ToolResult next =
        answers(call("c2", "{\"min\": 0, \"cursor\": \"" + cursor + "\"}")).getFirst();
    assertThat(next.result().toString()).isEqualTo("[{\"name\":\"c\"}]");
  }

  @Test
  void anUncutResultIsTheRowsAloneAsBefore() {
    Turn.ToolResult answer = answers(call("c1", "{\"min\": 1.5}")).getFirst();
    assertThat(answer.result().toString()).isEqualTo("[{\"name\":\"b\"},{\"name\":\"c\"}]");
  }

  @Test
  void theCursorIsOfferedToTheModelAsAnOptionalInput() {
    Agent agent = model.agent("clerk").orElseThrow();
    FunctionSpec items =
        new AgentTools(agent, runtime.tools())
            .specs().stream().filter(f -> f.name().equals("items")).findFirst().orElseThrow();
    assertThat(items.parameters().path("properties").has("cursor")).isTrue();
    assertThat(items.parameters().path("required").toString()).isEqualTo("[\"min\"]");
  }
}
