package dev.svc.testing;

import dev.svc.json.Json;
import tools.jackson.databind.node.ObjectNode;

/** Chat-completions answers as an OpenAI-compatible server sends them. */
public final class OpenAiReplies {
  private OpenAiReplies() {}

  public static String text(String text) {
    ObjectNode answer = Json.NODES.objectNode();
    answer.put("id", "chatcmpl-1").put("object", "chat.completion");
    ObjectNode choice = answer.putArray("choices").addObject();
    choice.put("index", 0).put("finish_reason", "stop");
    choice.putObject("message").put("role", "assistant").put("content", text);
    return answer.toString();
  }

  public static String toolCall(String id, String name, String arguments) {
    ObjectNode answer = Json.NODES.objectNode();
    ObjectNode choice = answer.putArray("choices").addObject();
    choice.put("index", 0).put("finish_reason", "tool_calls");
    ObjectNode message = choice.putObject("message").put("role", "assistant");
    message.putNull("content");
    ObjectNode call = message.putArray("tool_calls").addObject();
    call.put("id", id).put("type", "function");
    call.putObject("function").put("name", name).put("arguments", arguments);
    return answer.toString();
  }

  /** One answer asking for {@code count} calls of the same tool, ids {@code call_1} onwards. */
  public static String toolCalls(String name, String arguments, int count) {
    ObjectNode answer = Json.NODES.objectNode();
    ObjectNode choice = answer.putArray("choices").addObject();
    choice.put("index", 0).put("finish_reason", "tool_calls");
    ObjectNode message = choice.putObject("message").put("role", "assistant");
    message.putNull("content");
    tools.jackson.databind.node.ArrayNode calls = message.putArray("tool_calls");
    for (int i = 1; i <= count; i++) {
      ObjectNode call = calls.addObject();
      call.put("id", "call_" + i).put("type", "function");
      call.putObject("function").put("name", name).put("arguments", arguments);
    }
    return answer.toString();
  }

  /** One streamed chunk with a piece of text. */
  public static String delta(String text) {
    ObjectNode chunk = Json.NODES.objectNode();
    ObjectNode choice = chunk.putArray("choices").addObject();
    choice.put("index", 0);
    choice.putObject("delta").put("content", text);
    choice.putNull("finish_reason");
    return chunk.toString();
  }

  /** One streamed chunk with a piece of a tool call ({@code id} and {@code name} only first). */
  public static String toolDelta(int index, String id, String name, String arguments) {
    ObjectNode chunk = Json.NODES.objectNode();
    ObjectNode choice = chunk.putArray("choices").addObject();
    choice.put("index", 0);
    ObjectNode call = choice.putObject("delta").putArray("tool_calls").addObject();
    call.put("index", index);
    ObjectNode function = call.putObject("function");
    if (id != null) {
      call.put("id", id).put("type", "function");
      function.put("name", name);
    }
    function.put("arguments", arguments);
    return chunk.toString();
  }

  public static String done() {
    return "[DONE]";
  }
}
