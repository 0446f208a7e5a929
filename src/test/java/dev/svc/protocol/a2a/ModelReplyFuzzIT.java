package dev.svc.protocol.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.json.Json;
import dev.svc.testing.A2aFixture;
import dev.svc.testing.GeminiReplies;
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
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
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
            == app/agents/gem/config.terse
            description: Chats through Gemini.
            instruction: Be brief.
            model:
              provider: Google-AI-Studio
              model: gemini-2.5-flash
              options:
                base_url: {{MODEL}}/v1beta
            """,
            model.url(),
            Map.of("GOOGLE_API_KEY", "test-key"),
            A2aServerIT.settings());
    port = URI.create(svc.url()).getPort();
  }

  @AfterAll
  static void stop() {
    svc.close();
    model.close();
  }

  @Test
  void mutatedAnswersOfAnOpenAiCompatibleModelEndTheirTaskWithAReason() {
    Map<String, Integer> ends = new ConcurrentHashMap<>();
    WireFuzzer.assertHeld(
        "seed " + SEED,
        () -> campaign("chat", SEED, ModelReplyFuzzIT::openAiAnswer, ends),
        ModelReplyFuzzIT::assertAnswersAPlainMessage);
    assertThat(ends)
        .as("the tasks' ends")
        .containsKeys("TASK_STATE_COMPLETED", "TASK_STATE_FAILED");
  }

  @Test
  void mutatedStreamsOfAnOpenAiCompatibleModelEndTheirStreamWithAReason() {
    WireFuzzer.assertHeld(
        "seed " + (SEED + 1),
        () -> streamedCampaign("chat", SEED + 1, ModelReplyFuzzIT::openAiStream),
        ModelReplyFuzzIT::assertAnswersAPlainMessage);
  }

  @Test
  void mutatedAnswersOfGeminiEndTheirTaskWithAReason() {
    Map<String, Integer> ends = new ConcurrentHashMap<>();
    WireFuzzer.assertHeld(
        "seed " + (SEED + 2),
        () -> campaign("gem", SEED + 2, ModelReplyFuzzIT::geminiAnswer, ends),
        ModelReplyFuzzIT::assertAnswersAPlainMessage);
    assertThat(ends)
        .as("the tasks' ends")
        .containsKeys("TASK_STATE_COMPLETED", "TASK_STATE_FAILED");
  }

  @Test
  void mutatedStreamsOfGeminiEndTheirStreamWithAReason() {
    WireFuzzer.assertHeld(
        "seed " + (SEED + 3),
        () -> streamedCampaign("gem", SEED + 3, ModelReplyFuzzIT::geminiStream),
        ModelReplyFuzzIT::assertAnswersAPlainMessage);
  }

  private static void assertAnswersAPlainMessage() {
    model.clearReplies(); // a message refused before its model call leaves its answer unread
    assertThat(svc.result("chat", "SendMessage", A2aServerIT.userMessage("and now?")).toString())
        .contains("fine");
  }

  /** Each answer mutated and given to one SendMessage; {@code ends} counts the tasks' states. */
  private static List<String> campaign(
      String agent, long seed, Function<Random, String> validAnswer, Map<String, Integer> ends) {
    Random random = new Random(seed);
    WireFuzzer fuzzer = new WireFuzzer(port, words(), List.of(), List.of());
    List<String> faults = new ArrayList<>();
    for (int i = 0; i < ANSWERS && faults.size() < 10; i++) {
      String answer =
          new String(
              fuzzer.mutatedBody(
                  validAnswer.apply(random).getBytes(StandardCharsets.UTF_8), random),
              StandardCharsets.UTF_8);
      model.raw(200, "application/json", answer);
      Answer reply = WireFuzzer.exchange(port, sendMessage(agent, i, "SendMessage"));
      if (reply.body().startsWith("{")) {
        ends.merge(
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
      String fault = fault(reply);
      if (fault != null) {
        faults.add("seed " + seed + " #" + i + ": " + fault + "\n  model answer: " + shown(answer));
      }
    }
    return faults;
  }

  /** One event of a valid stream mutated, the stream read by SendStreamingMessage. */
  private static List<String> streamedCampaign(
      String agent, long seed, Function<Random, List<String>> validStream) {
    Random random = new Random(seed);
    WireFuzzer fuzzer = new WireFuzzer(port, words(), List.of(), List.of());
    List<String> faults = new ArrayList<>();
    for (int i = 0; i < ANSWERS && faults.size() < 10; i++) {
      List<String> events = new ArrayList<>(validStream.apply(random));
      int changed = random.nextInt(events.size());
      events.set(
          changed,
          new String(
              fuzzer.mutatedBody(events.get(changed).getBytes(StandardCharsets.UTF_8), random),
              StandardCharsets.UTF_8));
      model.reply(new ScriptedModelServer.SseReply(events));
      Request request = sendMessage(agent, i, "SendStreamingMessage");
      request.headers().put("Accept", "text/event-stream");
      String fault = fault(WireFuzzer.exchange(port, request));
      if (fault != null) {
        faults.add(
            "seed "
                + seed
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

  private static String fault(Answer reply) {
    String fault = WireFuzzer.faultIn(reply);
    if (fault == null && reply.body().contains("\"code\":-32603")) {
      return "an internal error: " + reply.body();
    }
    return fault;
  }

  private static String openAiAnswer(Random random) {
    return switch (random.nextInt(6)) {
      case 0 -> OpenAiReplies.text("the answer");
      case 1 -> OpenAiReplies.toolCall("call_1", "lookup", "{\"id\":" + random.nextInt(9) + "}");
      case 2 -> OpenAiReplies.toolCall("call_1", "greet", "{\"name\":\"Ada\"}");
      case 3 -> OpenAiReplies.toolCall("call_1", "lookup", "{\"id\":\"not a number\"}");
      case 4 -> OpenAiReplies.toolCall("call_1", "nobody", "{}");
      default -> OpenAiReplies.toolCalls("greet", "{\"name\":\"Bo\"}", 1 + random.nextInt(3));
    };
  }

  private static List<String> openAiStream(Random random) {
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

  private static String geminiAnswer(Random random) {
    return switch (random.nextInt(4)) {
      case 0 -> GeminiReplies.text("the answer");
      case 1 -> GeminiReplies.functionCall("lookup", "{\"id\":" + random.nextInt(9) + "}", null);
      case 2 -> GeminiReplies.functionCall("greet", "{\"name\":\"Ada\"}", "c2lnbmF0dXJl");
      default -> GeminiReplies.functionCall("nobody", "{}", null);
    };
  }

  private static List<String> geminiStream(Random random) {
    return random.nextBoolean()
        ? List.of(
            "{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"Hel\"}]}}]}",
            "{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"lo\"}]},"
                + "\"finishReason\":\"STOP\"}]}")
        : List.of(GeminiReplies.functionCall("lookup", "{\"id\":2}", null));
  }

  private static Request sendMessage(String agent, int i, String method) {
    ObjectNode body = Json.NODES.objectNode();
    body.put("jsonrpc", "2.0").put("id", i).put("method", method);
    ObjectNode message = body.putObject("params").putObject("message");
    message.put("messageId", agent + "-" + method + "-" + i).put("role", "ROLE_USER");
    message.putArray("parts").addObject().put("text", "hello").put("mediaType", "text/plain");
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Host", "localhost");
    headers.put("Content-Type", "application/json");
    headers.put("A2A-Version", "1.0");
    return new Request("/agent/" + agent, headers, WireFuzzer.bytes(body));
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
