package dev.svc.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.call.Caller;
import dev.svc.call.Headers;
import dev.svc.call.VerifiedToken;
import dev.svc.json.Json;
import dev.svc.model.Agent;
import dev.svc.model.Model;
import dev.svc.ratelimit.InMemoryRateLimiter;
import dev.svc.ratelimit.RateLimiter;
import dev.svc.runtime.ProjectRuntime;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An agent's tool calls count against the tool's {@code rate_limit} for the verified principal of
 * the request that started the run (every caller without one together); a refused call is a tool
 * error the model reads, and the tool does not run. A real SQLite file.
 */
class AgentRateLimitTest {
  static final String PROJECT =
      """
      == .svc
      name: shop
      == app/adapters/db.terse
      connector: sqlite
      connection_string: "file:./shop.db"
      == app/tools/hit/config.terse
      description: Records a hit.
      use: db
      statement: INSERT INTO hits DEFAULT VALUES
      rate_limit: {requests: 2, per: 1h}
      == app/agents/clerk/config.terse
      instruction: Hit things.
      model: {provider: openai, model: m}
      """;

  @TempDir Path directory;
  ProjectRuntime runtime;
  Model model;
  final RateLimiter limiter = new InMemoryRateLimiter();

  @BeforeEach
  void start() throws SQLException {
    model = ProjectFixture.model(directory, PROJECT);
    try (Connection db =
            DriverManager.getConnection("jdbc:sqlite:" + directory.resolve("shop.db"));
        java.sql.Statement seed = db.createStatement()) {
      seed.executeUpdate("CREATE TABLE hits (id INTEGER PRIMARY KEY)");
    }
    runtime = ProjectFixture.runtimeWithoutScripts(model, directory);
  }

  @AfterEach
  void stop() {
    runtime.close();
  }

  /** A call of the subject of a token {@code server.auth} verified. */
  private Turn.ToolResult hit(String subject) {
    return hit(
        new Caller(
            "req",
            Headers.NONE,
            Optional.empty(),
            Optional.of(
                new VerifiedToken(subject, Set.of(), Instant.parse("2030-01-01T00:00:00Z")))));
  }

  private Turn.ToolResult hit(Caller caller) {
    Agent agent = model.agent("clerk").orElseThrow();
    AgentTools tools = new AgentTools(agent, runtime.tools(), limiter);
    return tools.call(new ToolCall("c", "hit", Json.NODES.objectNode()), caller);
  }

  private Turn.ToolResult hitWithKey(String apiKey) {
    return hit(new Caller("req", Headers.of("X-API-Key", apiKey), Optional.empty()));
  }

  private long hits() throws SQLException {
    try (Connection db =
            DriverManager.getConnection("jdbc:sqlite:" + directory.resolve("shop.db"));
        ResultSet rows = db.createStatement().executeQuery("SELECT count(*) FROM hits")) {
      rows.next();
      return rows.getLong(1);
    }
  }

  @Test
  void theCallPastTheLimitIsAToolErrorAndDoesNotRun() throws SQLException {
    assertThat(hit("alice").failed()).isFalse();
    assertThat(hit("alice").failed()).isFalse();
    Turn.ToolResult refused = hit("alice");
    assertThat(refused.failed()).isTrue();
    assertThat(refused.result().path("error").asString())
        .startsWith("rate limit exceeded: tool `hit` allows 2 calls per 3600 s; retry after ");
    assertThat(hits()).isEqualTo(2);
  }

  @Test
  void anotherPrincipalHasItsOwnCount() throws SQLException {
    hit("alice");
    hit("alice");
    assertThat(hit("alice").failed()).isTrue();
    assertThat(hit("bob").failed()).isFalse();
    assertThat(hits()).isEqualTo(3);
  }

  @Test
  void unverifiedKeysAreNotCallersOfTheirOwn() throws SQLException {
    assertThat(hitWithKey("k1").failed()).isFalse();
    assertThat(hitWithKey("k2").failed()).isFalse();
    assertThat(hitWithKey("k3").failed()).as("a new made-up key is no new count").isTrue();
    assertThat(hit(new Caller("req", Headers.NONE, Optional.empty())).failed()).isTrue();
    assertThat(hits()).isEqualTo(2);
  }
}
