package dev.svc.protocol.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.json.Json;
import dev.svc.testing.A2aFixture;
import dev.svc.testing.OpenAiReplies;
import dev.svc.testing.ScriptedModelServer;
import dev.svc.testing.WireFuzzer;
import dev.svc.testing.WireFuzzer.Answer;
import dev.svc.testing.WireFuzzer.Request;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/**
 * The other side of the wire: a model provider whose answers are mutated as the wire fuzzers mutate
 * requests (values of other types, keys removed or renamed, lone surrogates, strings of 200,000
 * characters, deep nesting; bytes truncated, flipped, or followed by more). Each answer is the
 * model's reply to one A2A {@code SendMessage} of an agent with a SQLite and a TypeScript tool (the
 * valid answers are a text or calls of those tools with good or bad arguments). svc must answer
 * every message with a well-formed result — the task failed with a reason is one — or a precise
 * error: no 5xx, no internal error, no error in its log, and a plain message answered after. {@code
 * -Dsvc.fuzz.seed=N -Dsvc.fuzz.requests=M} as for the wire fuzzers (here one model answer per
 * request, a fifth as many).
 */
class ModelReplyFuzzIT {
  private static final long SEED = Long.getLong("svc.fuzz.seed", 20261127L);
  private static final int ANSWERS =
      Math.max(20, Integer.getInteger("svc.fuzz.requests", 1_500) / 5);

  @TempDir static Path dir;
  static ScriptedModelServer model;
  static A2aFixture svc;
  static int port;

  @BeforeAll
  static void start() {
    model =
        ScriptedModelServer.start()
            .otherwise(
                new ScriptedModelServer.JsonReply(
                    200, Json.MAPPER.readTree(OpenAiReplies.text("fine"))));
    svc =
        A2aFixture.launch(
            dir,
            """
            == .svc
            name: fuzzed
            == app/adapters/db.terse
            connector: sqlite
            connection_string: ":memory:"
            == app/tools/lookup/config.terse
            description: An item by id.
            use: db
            statement: SELECT {{ inputs.id }} AS id, 'item' AS name
            inputs:
              id: {type: int, description: Id}
            == app/tools/greet/config.terse
            description: Greets.
            inputs:
              name: {type: string, description: Who}
            == app/tools/greet/handler.ts
            export default ({ inputs }) => "Hello " + inputs.name;
            == app/agents/chat/config.terse
            description: Chats.
            instruction: Be brief.
            model:
              provider: openai
              model: gpt-test
              options:
                base_url: {{MODEL}}/v1
                api_key: test-key
            """,
            model.url(),
            Map.of(),
            A2aServerIT.settings());
    port = URI.create(svc.url()).getPort();
  }

  @AfterAll
  static void stop() {
    svc.close();
    model.close();
  }

  /** How the campaign's tasks ended, by state: it must have reached both ends. */
  static final Map<String, Integer> ENDS = new java.util.concurrent.ConcurrentHashMap<>();

  @Test
  void mutatedModelAnswersEndTheirTaskWithAReasonAndTheAgentKeepsAnswering() {
    WireFuzzer.assertHeld(
        "seed " + SEED, ModelReplyFuzzIT::campaign, ModelReplyFuzzIT::assertAnswersAPlainMessage);
    assertThat(ENDS)
        .as("the tasks' ends")
        .containsKeys("TASK_STATE_COMPLETED", "TASK_STATE_FAILED");
  }

  @Test
  void mutatedStreamedModelAnswersEndTheirStreamWithAReasonAndTheAgentKeepsAnswering() {
    WireFuzzer.assertHeld(
        "seed " + SEED,
        ModelReplyFuzzIT::streamedCampaign,
        ModelReplyFuzzIT::assertAnswersAPlainMessage);
  }

  /**
   * Streamed answers: one event of a valid stream mutated, the stream read by SendStreamingMessage.
   */
  private static List<String> streamedCampaign() {
    Random random = new Random(SEED + 1);
    WireFuzzer fuzzer = new WireFuzzer(port, words(), List.of(), List.of());
    List<String> faults = new ArrayList<>();
    for (int i = 0; i < ANSWERS && faults.size() < 10; i++) {
      List<String> events = new ArrayList<>(validStream(random));
      int changed = random.nextInt(events.size());
      events.set(
          changed,
          new String(
              fuzzer.mutatedBody(events.get(changed).getBytes(StandardCharsets.UTF_8), random),
              StandardCharsets.UTF_8));
      model.reply(new ScriptedModelServer.SseReply(events));
      Request request = sendMessage(i, "SendStreamingMessage");
      request.headers().put("Accept", "text/event-stream");
      Answer reply = WireFuzzer.exchange(port, request);
      String fault = WireFuzzer.faultIn(reply);
      if (fault == null && reply.body().contains("\"code\":-32603")) {
        fault = "an internal error: " + reply.body();
      }
      if (fault != null) {
        faults.add(
            "seed "
                + (SEED + 1)
                + " #"
                + i
                + ": "
                + fault
                + "\n  model events: "
                + shown(events.toString()));
      }
    }
    return faults;
  }

  private static List<String> validStream(Random random) {
    return switch (random.nextInt(3)) {
      case 0 ->
          List.of(OpenAiReplies.delta("Hel"), OpenAiReplies.delta("lo"), OpenAiReplies.done());
      case 1 ->
          List.of(
              OpenAiReplies.toolDelta(0, "call_1", "lookup", "{\"id\""),
              OpenAiReplies.toolDelta(0, null, null, ":3}"),
              OpenAiReplies.done());
      default ->
          List.of(
              OpenAiReplies.toolDelta(0, "call_1", "greet", "{\"name\":\"Ada\"}"),
              OpenAiReplies.toolDelta(1, "call_2", "lookup", "{\"id\":1}"),
              OpenAiReplies.done());
    };
  }

  private static void assertAnswersAPlainMessage() {
    model.clearReplies(); // a message refused before its model call leaves its answer unread
    assertThat(svc.result("chat", "SendMessage", A2aServerIT.userMessage("and now?")).toString())
        .contains("fine");
  }

  private static List<String> campaign() {
    Random random = new Random(SEED);
    WireFuzzer fuzzer = new WireFuzzer(port, words(), List.of(), List.of());
    List<String> faults = new ArrayList<>();
    for (int i = 0; i < ANSWERS && faults.size() < 10; i++) {
      byte[] answer =
          fuzzer.mutatedBody(validAnswer(random).getBytes(StandardCharsets.UTF_8), random);
      model.raw(200, "application/json", new String(answer, StandardCharsets.UTF_8));
      Answer reply = WireFuzzer.exchange(port, sendMessage(i, "SendMessage"));
      String fault = WireFuzzer.faultIn(reply);
      if (reply.body().startsWith("{")) {
        ENDS.merge(
            Json.MAPPER
                .readTree(reply.body())
                .path("result")
                .path("task")
                .path("status")
                .path("state")
                .asString("none"),
            1,
            Integer::sum);
      }
      if (fault == null && reply.body().contains("\"code\":-32603")) {
        fault = "an internal error: " + reply.body();
      }
      if (fault != null) {
        faults.add(
            "seed "
                + SEED
                + " #"
                + i
                + ": "
                + fault
                + "\n  model answer: "
                + shown(new String(answer, StandardCharsets.UTF_8)));
      }
    }
    return faults;
  }

  private static String validAnswer(Random random) {
    return switch (random.nextInt(6)) {
      case 0 -> OpenAiReplies.text("the answer");
      case 1 -> OpenAiReplies.toolCall("call_1", "lookup", "{\"id\":" + random.nextInt(9) + "}");
      case 2 -> OpenAiReplies.toolCall("call_1", "greet", "{\"name\":\"Ada\"}");
      case 3 -> OpenAiReplies.toolCall("call_1", "lookup", "{\"id\":\"not a number\"}");
      case 4 -> OpenAiReplies.toolCall("call_1", "nobody", "{}");
      default -> OpenAiReplies.toolCalls("greet", "{\"name\":\"Bo\"}", 1 + random.nextInt(3));
    };
  }

  private static Request sendMessage(int i, String method) {
    ObjectNode body = Json.NODES.objectNode();
    body.put("jsonrpc", "2.0").put("id", i).put("method", method);
    ObjectNode message = body.putObject("params").putObject("message");
    message.put("messageId", method + "-" + i).put("role", "ROLE_USER");
    message.putArray("parts").addObject().put("text", "hello").put("mediaType", "text/plain");
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Host", "localhost");
    headers.put("Content-Type", "application/json");
    headers.put("A2A-Version", "1.0");
    return new Request("/agent/chat", headers, WireFuzzer.bytes(body));
  }

  private static List<String> words() {
    return List.of(
        "choices",
        "message",
        "content",
        "role",
        "assistant",
        "tool_calls",
        "function",
        "name",
        "arguments",
        "id",
        "type",
        "finish_reason",
        "stop",
        "length",
        "content_filter",
        "tool_calls",
        "lookup",
        "greet",
        "search",
        "usage",
        "error",
        "refusal",
        "{\"id\":1}",
        "{\"name\":\"x\"}",
        "{");
  }

  private static String shown(String text) {
    return text.length() <= 600 ? text : text.substring(0, 600) + "… (" + text.length() + ")";
  }
}
