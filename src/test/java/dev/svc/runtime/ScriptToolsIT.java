package dev.svc.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.call.Caller;
import dev.svc.call.Headers;
import dev.svc.connector.Connectors;
import dev.svc.json.Json;
import dev.svc.log.Level;
import dev.svc.model.Model;
import dev.svc.project.Environment;
import dev.svc.script.PooledScriptRunner;
import dev.svc.script.V8Engine;
import dev.svc.testing.CapturedLog;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The tool pipeline with real scripts and a real SQLite database: handlers, transforms around a
 * statement, script errors and deadlines as tool errors, and custom auth plugins.
 */
class ScriptToolsIT {
  static final String PROJECT =
      """
      == .svc
      name: shop
      == app/adapters/lite.terse
      connector: sqlite
      connection_string: "file:./shop.db"
      == app/tools/greet/config.terse
      description: Greets someone.
      inputs:
        name: {type: string}
      == app/tools/greet/handler.ts
      export default ({ inputs, tool }: { inputs: { name: string }; tool: string }) =>
        ({ greeting: `Hello ${inputs.name}`, tool });
      == app/tools/find/config.terse
      description: Users with a given name, as "id:name" strings.
      use: lite
      statement: SELECT id, name FROM users WHERE lower(name) = {{ inputs.name }} ORDER BY id
      mappers:
        input: transforms.ts#normalise
        output: transforms.ts#compact
      inputs:
        name: {type: string}
      == app/tools/find/transforms.ts
      export function normalise({ inputs }: { inputs: { name: string } }) {
        if (inputs.name.trim() === "") throw new Error("name must not be empty");
        return { name: inputs.name.trim().toLowerCase() };
      }
      export function compact({ results, tool }: { results: Array<{ id: number; name: string }>; tool: string }) {
        return { tool, users: results.map((r) => `${r.id}:${r.name}`) };
      }
      == app/tools/visit/config.terse
      description: Records a visit.
      use: lite
      statement: INSERT INTO visits (name) VALUES ({{ inputs.name }})
      mappers:
        input: ../find/transforms.ts#normalise
      inputs:
        name: {type: string}
      == app/tools/shaped/config.terse
      description: Transforms found by convention around a handler.
      inputs:
        n: {type: int}
      == app/tools/shaped/handler.ts
      export default ({ inputs }) => [inputs.n, inputs.added];
      == app/tools/shaped/input.ts
      export default ({ inputs }) => ({ ...inputs, added: "by input.ts" });
      == app/tools/shaped/output.ts
      export default ({ results }) => ({ wrapped: results });
      == app/tools/failing/config.terse
      description: Always throws.
      == app/tools/failing/handler.ts
      export default () => { throw new TypeError("the service said no"); };
      == app/tools/slow/config.terse
      description: Never finishes.
      timeout: 1
      == app/tools/slow/handler.ts
      export default () => { for (;;) {} };
      == app/tools/notes/config.terse
      description: Notes behind a bearer token.
      auth:
        plugin: bearer
        policy:
          token: "{{ env.NOTES_TOKEN }}"
      == app/tools/notes/handler.ts
      export default () => ["first note"];
      == app/tools/odd/config.terse
      description: Behind a plugin that answers nonsense.
      auth:
        plugin: odd
      == app/tools/odd/handler.ts
      export default () => "never";
      == app/plugins/bearer.ts
      export default ({ headers, policy, tool }) => {
        const auth = headers["authorization"] ?? "";
        if (auth === "") return false;
        if (auth === "Bearer long") return { allow: false, reason: "not you\\n" + "r".repeat(100000) };
        if (auth === "Bearer " + policy.token) return { allow: true, identity: "user-1" };
        return { allow: false, reason: `wrong token for ${tool}` };
      };
      == app/plugins/odd.ts
      export default () => 42;
      == app/tools/vault/config.terse
      description: Behind a plugin that trips over its policy or the caller's key.
      auth:
        plugin: parsing
        policy:
          keys: "{{ env.VAULT_KEYS }}"
      == app/tools/vault/handler.ts
      export default () => "opened";
      == app/plugins/parsing.ts
      export default ({ headers, policy }) =>
        headers["x-api-key"] !== undefined
          ? JSON.parse(headers["x-api-key"]).ok === true
          : JSON.parse(policy.keys).length > 0;
      == app/tools/stuck/config.terse
      description: Behind a plugin that never answers.
      timeout: 1
      auth:
        plugin: stuck
      == app/tools/stuck/handler.ts
      export default () => "never";
      == app/plugins/stuck.ts
      export default () => { for (;;) {} };
      """;

  @TempDir Path dir;
  ProjectRuntime runtime;

  @BeforeEach
  void start() throws SQLException {
    Model model = ProjectFixture.model(dir, PROJECT);
    sql(
        "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL)",
        "INSERT INTO users VALUES (1, 'Ada'), (2, 'Grace'), (3, 'ada')",
        "CREATE TABLE visits (name TEXT NOT NULL)");
    runtime =
        ProjectRuntime.start(
            model,
            new ProjectRuntime.Settings(
                Environment.of(Map.of("NOTES_TOKEN", "s3cret", "VAULT_KEYS", "Vault-K3ys-Secret")),
                dir,
                Connectors::open,
                new PooledScriptRunner(
                    new V8Engine(V8Engine.DEFAULT_HEAP_MB),
                    model.scripts(),
                    new PooledScriptRunner.Settings(2, Duration.ofSeconds(30), false)),
                1 << 20));
  }

  /** Runs statements on the test database directly, outside svc. */
  void sql(String... statements) throws SQLException {
    try (Connection connection =
            DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("shop.db"));
        java.sql.Statement statement = connection.createStatement()) {
      for (String text : statements) {
        statement.execute(text);
      }
    }
  }

  long visits() throws SQLException {
    try (Connection connection =
            DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("shop.db"));
        ResultSet rows = connection.createStatement().executeQuery("SELECT count(*) FROM visits")) {
      rows.next();
      return rows.getLong(1);
    }
  }

  @AfterEach
  void stop() {
    runtime.close();
  }

  ToolOutcome call(String tool, String arguments, Headers headers) {
    Caller caller = new Caller("req-1", headers, Optional.empty());
    return runtime.tools().call(tool, Json.MAPPER.readTree(arguments), caller);
  }

  ToolOutcome call(String tool, String arguments) {
    return call(tool, arguments, Headers.NONE);
  }

  static JsonNode json(String text) {
    return Json.MAPPER.readTree(text);
  }

  @Test
  void aHandlerToolReturnsWhatItsHandlerReturns() {
    assertThat(payload(call("greet", "{\"name\":\"Ada\"}")))
        .isEqualTo(json("{\"greeting\":\"Hello Ada\",\"tool\":\"greet\"}"));
  }

  @Test
  void aHybridToolRunsInputTransformThenTheStatementThenOutputTransform() {
    assertThat(payload(call("find", "{\"name\":\"  ADA \"}")))
        .isEqualTo(json("{\"tool\":\"find\",\"users\":[\"1:Ada\",\"3:ada\"]}"));
  }

  @Test
  void anInputTransformThatThrowsAbortsTheCallWithItsMessage() throws SQLException {
    assertThat(call("find", "{\"name\":\"   \"}"))
        .isEqualTo(new ToolOutcome.Failure("name must not be empty"));
    assertThat(call("visit", "{\"name\":\"   \"}"))
        .isEqualTo(new ToolOutcome.Failure("name must not be empty"));
    assertThat(visits()).isZero();

    assertThat(call("visit", "{\"name\":\" Ada \"}"))
        .isInstanceOfSatisfying(
            ToolOutcome.Success.class,
            s -> assertThat(s.payload().toString()).isEqualTo("[{\"rows_affected\":1}]"));
    assertThat(visits()).isEqualTo(1);
  }

  @Test
  void transformsFoundByConventionRunAroundAHandler() {
    assertThat(payload(call("shaped", "{\"n\":\"5\"}")))
        .isEqualTo(json("{\"wrapped\":[5,\"by input.ts\"]}"));
  }

  @Test
  void aHandlerThatThrowsIsAToolErrorCarryingOnlyItsMessage() {
    assertThat(call("failing", "{}")).isEqualTo(new ToolOutcome.Failure("the service said no"));
  }

  @Test
  void aScriptPastTheToolsDeadlineIsATimeoutError() {
    assertThat(call("slow", "{}"))
        .isEqualTo(new ToolOutcome.Failure("the script ran longer than 1 s"));
    assertThat(call("greet", "{\"name\":\"after\"}")).isInstanceOf(ToolOutcome.Success.class);
  }

  @Test
  void aCustomAuthPluginAllowsWithTheRightToken() {
    assertThat(payload(call("notes", "{}", Headers.of("Authorization", "Bearer s3cret"))))
        .isEqualTo(json("[\"first note\"]"));
  }

  @Test
  void aCustomAuthPluginRefusesWithItsReasonOrAPlainRefusal() {
    assertThat(call("notes", "{}", Headers.of("Authorization", "Bearer guess")))
        .isEqualTo(new ToolOutcome.Failure("authentication failed: wrong token for notes"));
    assertThat(call("notes", "{}"))
        .isEqualTo(
            new ToolOutcome.Failure(
                "authentication failed: the auth plugin `bearer` refused the call"));
  }

  @Test
  void aRefusalsReasonIsOneLineAndBoundedLikeAThrownMessage() {
    // a plugin may put what the caller sent in its reason: it reaches the caller as a thrown
    // message would, on one line and cut at 2,000 characters
    assertThat(call("notes", "{}", Headers.of("Authorization", "Bearer long")))
        .isEqualTo(
            new ToolOutcome.Failure(
                "authentication failed: "
                    + ("not you " + "r".repeat(2000)).substring(0, 2000)
                    + "…"));
  }

  /**
   * V8 quotes what it could not parse, so a plugin tripping over a policy value (from the
   * environment) or the caller's key would hand it to the caller, the audit file and the debug log.
   */
  @Test
  void aThrownMessageDoesNotRepeatThePolicyOrTheCallersKey() {
    ToolOutcome policy;
    ToolOutcome key;
    ToolOutcome longKey;
    String log;
    try (CapturedLog captured = CapturedLog.at(Level.DEBUG)) {
      policy = call("vault", "{}");
      key = call("vault", "{}", Headers.of("X-API-Key", "Caller-K3y-123"));
      // past 20 characters V8 quotes only ten either side of where it failed: those are redacted
      longKey =
          call("vault", "{}", Headers.of("X-API-Key", "Caller-K3y-" + "x".repeat(40) + "}tail"));
      log = captured.text();
    }

    assertThat(policy)
        .isInstanceOfSatisfying(
            ToolOutcome.Failure.class,
            f ->
                assertThat(f.message())
                    .startsWith("authentication failed: ")
                    .contains("[redacted]")
                    .doesNotContain("K3y"));
    assertThat(key)
        .isInstanceOfSatisfying(
            ToolOutcome.Failure.class,
            f -> assertThat(f.message()).contains("[redacted]").doesNotContain("K3y"));
    assertThat(longKey)
        .isInstanceOfSatisfying(
            ToolOutcome.Failure.class,
            f ->
                assertThat(f.message())
                    .contains("[redacted]")
                    .doesNotContain("K3y")
                    .doesNotContain("xxxx"));
    assertThat(log).contains("script failed").doesNotContain("K3y").doesNotContain("xxxxx");
  }

  @Test
  void anAuthPluginAnsweringNeitherBooleanNorDecisionRefuses() {
    assertThat(call("odd", "{}"))
        .isEqualTo(
            new ToolOutcome.Failure(
                "authentication failed: the auth plugin `odd` returned neither true/false nor"
                    + " {allow, reason}"));
  }

  @Test
  void anAuthPluginPastTheToolsDeadlineRefusesSayingSo() {
    assertThat(call("stuck", "{}"))
        .isEqualTo(
            new ToolOutcome.Failure(
                "authentication failed: the auth plugin `stuck` ran longer than 1 s"));
  }

  /** The payload of a successful outcome (failing the test on a failure). */
  private static JsonNode payload(ToolOutcome outcome) {
    assertThat(outcome).isInstanceOf(ToolOutcome.Success.class);
    return ((ToolOutcome.Success) outcome).payload();
  }
}
