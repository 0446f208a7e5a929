package dev.svc.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.call.Caller;
import dev.svc.call.Headers;
import dev.svc.connector.Connector;
import dev.svc.model.Model;
import dev.svc.model.Statement;
import dev.svc.project.Environment;
import dev.svc.script.PooledScriptRunner;
import dev.svc.script.V8Engine;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The tool pipeline with real scripts: handlers, transforms around a statement, script errors and
 * deadlines as tool errors, and custom auth plugins.
 *
 * <p>The SQL connectors are not on this branch yet, so the statement of the hybrid tool runs on a
 * stub {@link Connector} (the seam {@link ProjectRuntime.Settings#connectorFactory()} offers) that
 * records what was bound and answers fixed rows.
 */
class ScriptToolsTest {
  static final String PROJECT =
      """
      == .svc
      name: shop
      == app/adapters/lite.terse
      connector: sqlite
      connection_string: ":memory:"
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
      statement: SELECT id, name FROM users WHERE lower(name) = {{ inputs.name }}
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
        if (auth === "Bearer " + policy.token) return { allow: true, identity: "user-1" };
        return { allow: false, reason: `wrong token for ${tool}` };
      };
      == app/plugins/odd.ts
      export default () => 42;
      """;

  /** What the stub connector was asked to run. */
  record Executed(String statement, Map<String, Object> values) {}

  @TempDir Path dir;
  final List<Executed> executed = new CopyOnWriteArrayList<>();
  ProjectRuntime runtime;

  @BeforeEach
  void start() {
    Model model = ProjectFixture.model(dir, PROJECT);
    Connector stub =
        new Connector() {
          @Override
          public void check(Duration timeout) {}

          @Override
          public JsonNode execute(
              Statement statement, Map<String, Object> values, Duration timeout) {
            executed.add(new Executed(statement.source(), values));
            return Json.MAPPER.readTree(
                "[{\"id\":1,\"name\":\"ada\"},{\"id\":2,\"name\":\"ada\"}]");
          }

          @Override
          public void close() {}
        };
    runtime =
        ProjectRuntime.start(
            model,
            new ProjectRuntime.Settings(
                Environment.of(Map.of("NOTES_TOKEN", "s3cret")),
                dir,
                adapter -> stub,
                new PooledScriptRunner(
                    new V8Engine(V8Engine.DEFAULT_HEAP_MB),
                    model.scripts(),
                    new PooledScriptRunner.Settings(2, Duration.ofSeconds(30), false)),
                1 << 20));
  }

  @AfterEach
  void stop() {
    runtime.close();
  }

  ToolOutcome call(String tool, String arguments, Headers headers) {
    Caller caller = new Caller("req-1", headers, Optional.empty());
    return ScopedValue.where(Caller.CURRENT, caller)
        .call(() -> runtime.tools().call(tool, Json.MAPPER.readTree(arguments), caller));
  }

  ToolOutcome call(String tool, String arguments) {
    return call(tool, arguments, Headers.NONE);
  }

  static JsonNode json(String text) {
    return Json.MAPPER.readTree(text);
  }

  @Test
  void aHandlerToolReturnsWhatItsHandlerReturns() {
    assertThat(call("greet", "{\"name\":\"Ada\"}"))
        .isEqualTo(
            new ToolOutcome.Success(json("{\"greeting\":\"Hello Ada\",\"tool\":\"greet\"}")));
  }

  @Test
  void aHybridToolRunsInputTransformThenTheStatementThenOutputTransform() {
    ToolOutcome outcome = call("find", "{\"name\":\"  ADA \"}");

    assertThat(executed)
        .containsExactly(
            new Executed(
                "SELECT id, name FROM users WHERE lower(name) = {{ inputs.name }}",
                Map.of("name", "ada")));
    assertThat(outcome)
        .isEqualTo(
            new ToolOutcome.Success(json("{\"tool\":\"find\",\"users\":[\"1:ada\",\"2:ada\"]}")));
  }

  @Test
  void anInputTransformThatThrowsAbortsTheCallWithItsMessage() {
    assertThat(call("find", "{\"name\":\"   \"}"))
        .isEqualTo(new ToolOutcome.Failure("name must not be empty"));
    assertThat(executed).isEmpty();
  }

  @Test
  void transformsFoundByConventionRunAroundAHandler() {
    assertThat(call("shaped", "{\"n\":\"5\"}"))
        .isEqualTo(new ToolOutcome.Success(json("{\"wrapped\":[5,\"by input.ts\"]}")));
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
    assertThat(call("notes", "{}", Headers.of("Authorization", "Bearer s3cret")))
        .isEqualTo(new ToolOutcome.Success(json("[\"first note\"]")));
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
  void anAuthPluginAnsweringNeitherBooleanNorDecisionRefuses() {
    assertThat(call("odd", "{}"))
        .isEqualTo(
            new ToolOutcome.Failure(
                "authentication failed: the auth plugin `odd` returned neither true/false nor"
                    + " {allow, reason}"));
  }
}
