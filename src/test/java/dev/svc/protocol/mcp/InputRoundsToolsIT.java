package dev.svc.protocol.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.auth.Principal;
import dev.svc.call.Caller;
import dev.svc.call.Headers;
import dev.svc.call.InputRequiredException;
import dev.svc.connector.Connectors;
import dev.svc.json.Json;
import dev.svc.model.Model;
import dev.svc.project.Environment;
import dev.svc.protocol.jsonrpc.JsonRpcException;
import dev.svc.runtime.ProjectRuntime;
import dev.svc.runtime.ToolOutcome;
import dev.svc.script.PooledScriptRunner;
import dev.svc.script.V8Engine;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * MRTR rounds (2026-07-28) through the real tool pipeline and real scripts: a question without an
 * answer ends the call as input required, questions asked together go out in one round, and the
 * retried call runs again from the start with the answers. The HTTP transport is wired elsewhere.
 */
class InputRoundsToolsIT {
  static final String PROJECT =
      """
      == .svc
      name: rounds
      == app/tools/drop/config.terse
      description: Drops something, after asking.
      confirm: "Drop {{ inputs.what }}?"
      inputs:
        what: {type: string}
      == app/tools/drop/handler.ts
      export default ({ inputs }) => `dropped ${inputs.what}`;
      == app/tools/drop_anyway/config.terse
      description: Drops something, asking when it can.
      confirm: "Drop {{ inputs.what }}?"
      confirm_fallback: allow
      inputs:
        what: {type: string}
      == app/tools/drop_anyway/handler.ts
      export default ({ inputs }) => `dropped ${inputs.what}`;
      == app/tools/form/config.terse
      description: Asks two things at once, then one more.
      handler: handler.ts
      == app/tools/form/handler.ts
      export default async () => {
        const schema = { type: "object", properties: { v: { type: "string" } } };
        const [a, b] = await Promise.all([
          mcp.elicit({ message: "first?", schema }),
          mcp.elicit({ message: "second?", schema }),
        ]);
        const roots = await mcp.listRoots();
        return [a.content.v, b.content.v, roots.roots.length];
      };
      == app/tools/sampler/config.terse
      description: Samples.
      handler: handler.ts
      == app/tools/sampler/handler.ts
      export default async () => {
        try {
          await mcp.sample({ messages: [], maxTokens: 1 });
        } catch (e) {
          return "caught: " + e.message;
        }
        return "sampled";
      };
      """;

  private static final Instant NOW = Instant.now();

  @TempDir Path dir;
  ProjectRuntime runtime;
  final RequestStates states = SessionTokens.create(Optional.of("k")).requestStates();

  @BeforeEach
  void start() {
    Model model = ProjectFixture.model(dir, PROJECT);
    runtime =
        ProjectRuntime.start(
            model,
            new ProjectRuntime.Settings(
                Environment.of(Map.of()),
                dir,
                Connectors::open,
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

  /** One round: the tool's result, or the input_required result, as the 2026 edge would answer. */
  JsonNode round(ObjectNode params, Set<String> capabilities) {
    InputRounds rounds =
        InputRounds.open(
            states, params, Principal.ANONYMOUS, new ClientCapabilities(capabilities), NOW);
    Caller caller = new Caller("req", Headers.NONE, Optional.empty()).withClientRequests(rounds);
    try {
      ToolOutcome outcome =
          runtime.tools().call(params.path("name").asString(), params.get("arguments"), caller);
      return rounds.complete(ToolResults.of(outcome).toJson());
    } catch (InputRequiredException e) {
      return rounds.inputRequired();
    }
  }

  static ObjectNode params(String tool, String arguments) {
    ObjectNode params = Json.NODES.objectNode().put("name", tool);
    params.set("arguments", Json.MAPPER.readTree(arguments));
    return params;
  }

  static ObjectNode retry(ObjectNode params, JsonNode previous, String responses) {
    ObjectNode again = params.deepCopy();
    again.set("requestState", previous.get("requestState"));
    again.set("inputResponses", Json.MAPPER.readTree(responses));
    return again;
  }

  static final Set<String> ALL = Set.of("elicitation", "sampling", "roots");

  @Test
  void aConfirmationIsAskedInOneRoundAndTheToolRunsOnTheAcceptedRetry() {
    ObjectNode params = params("drop", "{\"what\":\"table\"}");
    JsonNode first = round(params, ALL);

    assertThat(first.path("resultType").asString()).isEqualTo("input_required");
    assertThat(
            first.path("inputRequests").path("input-1").path("params").path("message").asString())
        .isEqualTo("Drop table?");

    JsonNode accepted = round(retry(params, first, "{\"input-1\":{\"action\":\"accept\"}}"), ALL);
    assertThat(accepted.path("isError").asBoolean()).isFalse();
    assertThat(accepted.path("content").path(0).path("text").asString()).contains("dropped table");

    JsonNode declined = round(retry(params, first, "{\"input-1\":{\"action\":\"decline\"}}"), ALL);
    assertThat(declined.path("isError").asBoolean()).isTrue();
    assertThat(declined.path("content").path(0).path("text").asString())
        .startsWith("the user declined to run tool `drop`");
  }

  @Test
  void aConfirmationWithoutTheCapabilityIsMissingCapabilityUnlessTheToolAllowsIt() {
    assertThatThrownBy(() -> round(params("drop", "{\"what\":\"t\"}"), Set.of()))
        .isInstanceOfSatisfying(
            JsonRpcException.class,
            e -> {
              assertThat(e.error().code()).isEqualTo(-32021);
              assertThat(e.error().data().orElseThrow().toString())
                  .isEqualTo("{\"requiredCapabilities\":{\"elicitation\":{}}}");
            });
    JsonNode allowed = round(params("drop_anyway", "{\"what\":\"t\"}"), Set.of());
    assertThat(allowed.path("content").path(0).path("text").asString()).contains("dropped t");
  }

  @Test
  void questionsAskedTogetherGoOutInOneRoundAndTheScriptRunsAgainWithTheAnswers() {
    ObjectNode params = params("form", "{}");
    JsonNode first = round(params, ALL);
    assertThat(first.path("inputRequests").propertyNames()).containsExactly("input-1", "input-2");

    JsonNode second =
        round(
            retry(
                params,
                first,
                "{\"input-1\":{\"action\":\"accept\",\"content\":{\"v\":\"a\"}},"
                    + "\"input-2\":{\"action\":\"accept\",\"content\":{\"v\":\"b\"}}}"),
            ALL);
    assertThat(second.path("inputRequests").propertyNames()).containsExactly("input-3");
    assertThat(second.path("inputRequests").path("input-3").path("method").asString())
        .isEqualTo("roots/list");

    JsonNode done =
        round(retry(params, second, "{\"input-3\":{\"roots\":[{\"uri\":\"file:///a\"}]}}"), ALL);
    assertThat(done.path("content").path(0).path("text").asString()).isEqualTo("[\"a\",\"b\",1]");
  }

  @Test
  void aScriptThatCatchesAMissingCapabilityStillFailsTheRequestWithMissingCapability() {
    assertThatThrownBy(() -> round(params("sampler", "{}"), Set.of("elicitation")))
        .isInstanceOfSatisfying(
            JsonRpcException.class, e -> assertThat(e.error().code()).isEqualTo(-32021));
  }
}
