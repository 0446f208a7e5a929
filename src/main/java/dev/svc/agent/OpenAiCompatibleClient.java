package dev.svc.agent;

import dev.svc.json.Json;
import dev.svc.json.LoneSurrogates;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * OpenAI-style chat completions: {@code POST {base_url}/chat/completions} with {@code
 * Authorization: Bearer <key>}, {@code tools} / {@code tool_calls}, and {@code stream: true} with
 * tool-call deltas assembled by their {@code index}. Works with any endpoint that speaks this
 * protocol.
 */
final class OpenAiCompatibleClient implements ModelClient {
  /** Request fields svc sets itself; a generation parameter of the same name is not sent. */
  private static final List<String> RESERVED = List.of("model", "messages", "tools", "stream");

  private final ModelSettings settings;
  private final ProviderHttp http;

  OpenAiCompatibleClient(ModelSettings settings) {
    this.settings = settings;
    this.http = new ProviderHttp("openai_compatible", settings.timeout());
  }

  @Override
  public Turn.Model generate(ModelRequest request, Consumer<String> text) {
    ObjectNode body = body(request);
    String url = settings.baseUrl() + "/chat/completions";
    Map<String, String> headers = new LinkedHashMap<>();
    settings.apiKey().ifPresent(key -> headers.put("Authorization", "Bearer " + key));
    if (!request.streaming()) {
      JsonNode answer = http.post(url, headers, body);
      JsonNode message = shaped(firstChoice(answer, headers).path("message"), "message");
      List<ToolCall> calls = new ArrayList<>();
      int n = 0;
      for (JsonNode call : message.path("tool_calls")) {
        calls.add(
            toolCall(
                text(call.path("id")),
                text(call.path("function").path("name")),
                text(call.path("function").path("arguments")),
                n++));
      }
      return new Turn.Model(
          content(message.path("content")),
          calls,
          Optional.empty(),
          Turn.Usage.of(answer.path("usage"), "prompt_tokens", "completion_tokens"));
    }
    body.put("stream", true);
    StringBuilder all = new StringBuilder();
    Map<Integer, PartialCall> partial = new TreeMap<>();
    Turn.Usage[] usage = {Turn.Usage.UNKNOWN};
    http.stream(
        url,
        headers,
        body,
        data -> {
          if (data.strip().equals("[DONE]")) {
            return;
          }
          JsonNode chunk = parse(data);
          if (chunk.has("error")) {
            String said = ProviderHttp.errorMessage(chunk.path("error"), headers);
            throw new ModelException(
                "openai_compatible failed mid-stream: "
                    + (said.isEmpty() ? "unknown error" : said));
          }
          if (chunk.path("usage").isObject()) { // sent when the server includes usage
            usage[0] = Turn.Usage.of(chunk.path("usage"), "prompt_tokens", "completion_tokens");
          }
          JsonNode choices = chunk.path("choices");
          if (choices.isMissingNode() || choices.isNull() || choices.isEmpty()) {
            return; // e.g. a usage-only chunk
          }
          if (!choices.isArray()) {
            throw new ModelException(
                "openai_compatible streamed `choices` that are not a list (" + kind(choices) + ")");
          }
          JsonNode delta = shaped(choices.get(0).path("delta"), "delta");
          String piece = content(delta.path("content"));
          if (!piece.isEmpty()) {
            all.append(piece);
            text.accept(piece);
          }
          for (JsonNode call : delta.path("tool_calls")) {
            int index = call.path("index").asInt(partial.size());
            PartialCall p = partial.computeIfAbsent(index, i -> new PartialCall());
            p.add(call);
          }
        });
    List<ToolCall> calls = new ArrayList<>();
    int n = 0;
    for (PartialCall p : partial.values()) {
      calls.add(toolCall(p.id.toString(), p.name.toString(), p.arguments.toString(), n++));
    }
    return new Turn.Model(all.toString(), calls, Optional.empty(), usage[0]);
  }

  private ObjectNode body(ModelRequest request) {
    ObjectNode body = Json.NODES.objectNode();
    body.put("model", settings.model());
    ArrayNode messages = body.putArray("messages");
    messages.addObject().put("role", "system").put("content", request.system());
    for (Turn turn : request.turns()) {
      switch (turn) {
        case Turn.User user -> messages.addObject().put("role", "user").put("content", user.text());
        case Turn.Model model -> {
          ObjectNode message = messages.addObject().put("role", "assistant");
          if (model.toolCalls().isEmpty()) {
            message.put("content", model.text());
          } else {
            if (model.text().isEmpty()) {
              message.putNull("content");
            } else {
              message.put("content", model.text());
            }
            ArrayNode calls = message.putArray("tool_calls");
            for (ToolCall call : model.toolCalls()) {
              ObjectNode c = calls.addObject().put("id", call.id()).put("type", "function");
              c.putObject("function")
                  .put("name", call.name())
                  .put(
                      "arguments",
                      call.arguments().isObject()
                          ? Json.MAPPER.writeValueAsString(call.arguments())
                          : call.arguments().asString("{}"));
            }
          }
        }
        case Turn.ToolResult result ->
            messages
                .addObject()
                .put("role", "tool")
                .put("tool_call_id", result.call().id())
                .put("content", Json.MAPPER.writeValueAsString(result.result()));
      }
    }
    if (!request.functions().isEmpty()) {
      ArrayNode tools = body.putArray("tools");
      for (FunctionSpec function : request.functions()) {
        ObjectNode f = tools.addObject().put("type", "function").putObject("function");
        f.put("name", function.name());
        f.put("description", function.description());
        f.set("parameters", function.parameters());
      }
    }
    settings
        .parameters()
        .forEach((key, value) -> {
          if (!RESERVED.contains(key)) {
            body.set(key, value);
          }
        });
    return body;
  }

  private static JsonNode firstChoice(JsonNode answer, Map<String, String> headers) {
    JsonNode choices = answer.path("choices");
    if (!choices.isArray() || choices.isEmpty()) {
      String error = ProviderHttp.errorMessage(answer.path("error"), headers);
      throw new ModelException(
          "openai_compatible answered without choices" + (error.isEmpty() ? "" : ": " + error));
    }
    return choices.get(0);
  }

  /**
   * A choice's {@code message} (or a stream's {@code delta}) in OpenAI's shape: an object whose
   * {@code content} is text, a list of parts or nothing, and whose {@code tool_calls} is a list or
   * nothing. Anything else is refused: a string message read as an empty answer, and an object of
   * tool calls as calls without names, which the loop sent back to the model until {@code
   * max_steps}.
   */
  private static JsonNode shaped(JsonNode message, String name) {
    if (!message.isObject()) {
      throw new ModelException(
          "openai_compatible answered a "
              + name
              + " that is not an object ("
              + kind(message)
              + ")");
    }
    JsonNode content = message.path("content");
    if (!(absent(content) || content.isString() || content.isArray())) {
      throw new ModelException(
          "openai_compatible answered a "
              + name
              + " whose content is neither text nor a list of parts ("
              + kind(content)
              + ")");
    }
    JsonNode calls = message.path("tool_calls");
    if (!(absent(calls) || calls.isArray())) {
      throw new ModelException(
          "openai_compatible answered a "
              + name
              + " whose tool_calls is not a list ("
              + kind(calls)
              + ")");
    }
    return message;
  }

  private static boolean absent(JsonNode node) {
    return node.isMissingNode() || node.isNull();
  }

  /** "a string", "an object", "nothing": what a value is, never what it says. */
  private static String kind(JsonNode node) {
    return switch (node.getNodeType()) {
      case OBJECT, POJO -> "an object";
      case ARRAY -> "a list";
      case STRING, BINARY -> "a string";
      case NUMBER -> "a number";
      case BOOLEAN -> "a boolean";
      case NULL, MISSING -> "nothing";
    };
  }

  /** Content as text: a string, or the text parts of an array of content parts. */
  private static String content(JsonNode content) {
    if (content.isString()) {
      return content.asString();
    }
    StringBuilder text = new StringBuilder();
    for (JsonNode part : content) {
      text.append(part.path("text").asString(""));
    }
    return text.toString();
  }

  /**
   * A field OpenAI sends as a string (a call's id, name, arguments): its text, a number's or a
   * boolean's as written, and an object or a list as JSON text (some compatible servers send {@code
   * arguments} as an object); nothing for null.
   */
  private static String text(JsonNode value) {
    if (value == null || value.isNull() || value.isMissingNode()) {
      return "";
    }
    return value.isContainer() ? Json.MAPPER.writeValueAsString(value) : value.asString();
  }

  private static ToolCall toolCall(String id, String name, String arguments, int n) {
    JsonNode args;
    if (arguments.isBlank()) {
      args = Json.NODES.objectNode();
    } else {
      try {
        args = LoneSurrogates.mended(Json.MAPPER.readTree(arguments), arguments);
      } catch (JacksonException e) {
        args = Json.NODES.stringNode(arguments); // the loop tells the model it was not JSON
      }
    }
    return new ToolCall(id.isEmpty() ? "call_" + n : id, name, args);
  }

  private static JsonNode parse(String data) {
    try {
      return LoneSurrogates.mended(Json.MAPPER.readTree(data), data);
    } catch (JacksonException e) {
      throw new ModelException("openai_compatible streamed an event that is not JSON", e);
    }
  }

  /** A tool call being assembled from stream deltas. */
  private static final class PartialCall {
    final StringBuilder id = new StringBuilder();
    final StringBuilder name = new StringBuilder();
    final StringBuilder arguments = new StringBuilder();

    void add(JsonNode delta) {
      if (delta.hasNonNull("id")) {
        id.setLength(0);
        id.append(text(delta.get("id")));
      }
      JsonNode function = delta.path("function");
      if (function.hasNonNull("name")) {
        // OpenAI sends the name once; some compatible servers repeat it in every delta
        String piece = text(function.get("name"));
        if (!name.toString().equals(piece)) {
          name.append(piece);
        }
      }
      if (function.hasNonNull("arguments")) {
        arguments.append(text(function.get("arguments")));
      }
    }
  }
}
