package dev.svc.protocol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.Instance;
import dev.svc.json.Json;
import dev.svc.testing.InteropProject;
import dev.svc.testing.McpHttpClient.Reply;
import dev.svc.testing.RunningProject;
import dev.svc.testing.StatelessMcpClient;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A stateless (2026-07-28) {@code tools/call} over real HTTP asks its client in rounds: the
 * question goes out in an {@code input_required} result, the retry carries the answer and the
 * signed {@code requestState}, and a state that was altered or made for another call is refused.
 */
class StatelessInputRoundsIT {
  @TempDir static Path dir;
  static Instance instance;
  static StatelessMcpClient client;

  @BeforeAll
  static void start() {
    instance = RunningProject.start(dir, InteropProject.FILES);
    client = new StatelessMcpClient(instance.baseUrl());
  }

  @AfterAll
  static void stop() {
    instance.close();
  }

  /** A {@code tools/call} of {@code forget} from a client that declares elicitation. */
  static ObjectNode forget(String name) {
    ObjectNode params = Json.NODES.objectNode().put("name", "forget");
    params.putObject("arguments").put("name", name);
    ObjectNode meta = StatelessMcpClient.meta();
    meta.putObject("io.modelcontextprotocol/clientCapabilities").putObject("elicitation");
    params.set("_meta", meta);
    return params;
  }

  static Reply call(ObjectNode params) {
    return client.post("tools/call", params.toString());
  }

  static ObjectNode retry(ObjectNode params, String requestState, String answerJson) {
    ObjectNode again = params.deepCopy();
    again.put("requestState", requestState);
    again.putObject("inputResponses").set("input-1", Json.MAPPER.readTree(answerJson));
    return again;
  }

  @Test
  void aConfirmationGoesOutInAnInputRequiredResultAndTheRetryWithTheAnswerRunsTheTool() {
    ObjectNode params = forget("Bob");
    Reply first = call(params);

    assertThat(first.status()).isEqualTo(200);
    JsonNode asked = first.json().path("result");
    assertThat(asked.path("resultType").asString())
        .as(asked.toString())
        .isEqualTo("input_required");
    assertThat(asked.path("inputRequests").path("input-1").path("method").asString())
        .isEqualTo("elicitation/create");
    assertThat(
            asked.path("inputRequests").path("input-1").path("params").path("message").asString())
        .isEqualTo("Forget Bob?");
    assertThat(asked.has("ttlMs")).as("input_required results carry no cache hints").isFalse();

    JsonNode ran =
        call(retry(params, asked.path("requestState").asString(), "{\"action\":\"accept\"}"))
            .json()
            .path("result");
    assertThat(ran.path("resultType").asString()).as(ran.toString()).isEqualTo("complete");
    assertThat(ran.path("structuredContent").toString())
        .isEqualTo("{\"rows\":[{\"forgotten\":\"Bob\"}]}");

    JsonNode declined =
        call(retry(params, asked.path("requestState").asString(), "{\"action\":\"decline\"}"))
            .json()
            .path("result");
    assertThat(declined.path("isError").asBoolean()).as(declined.toString()).isTrue();
  }

  @Test
  void anAlteredRequestStateIsRefusedAndTheToolDoesNotRun() {
    ObjectNode params = forget("Bob");
    String state = call(params).json().path("result").path("requestState").asString();
    String altered = state.substring(0, state.length() - 2) + (state.endsWith("A") ? "BB" : "AA");

    JsonNode error = call(retry(params, altered, "{\"action\":\"accept\"}")).json().path("error");

    assertThat(error.path("code").asInt()).as(error.toString()).isEqualTo(-32602);
    assertThat(error.path("message").asString()).contains("requestState");
  }

  @Test
  void aRequestStateMadeForOtherArgumentsIsRefused() {
    String state = call(forget("Bob")).json().path("result").path("requestState").asString();

    JsonNode error =
        call(retry(forget("Eve"), state, "{\"action\":\"accept\"}")).json().path("error");

    assertThat(error.path("code").asInt()).as(error.toString()).isEqualTo(-32602);
    assertThat(error.path("message").asString()).contains("belongs to another call");
  }

  @Test
  void aClientWithoutTheElicitationCapabilityGetsMissingCapabilityWithStatus400() {
    Reply reply =
        client.post("tools/call", "{\"name\":\"forget\",\"arguments\":{\"name\":\"Bob\"}}");

    assertThat(reply.status()).isEqualTo(400);
    JsonNode error = reply.json().path("error");
    assertThat(error.path("code").asInt()).as(error.toString()).isEqualTo(-32021);
    assertThat(error.path("data").path("requiredCapabilities").toString())
        .isEqualTo("{\"elicitation\":{}}");
  }
}
