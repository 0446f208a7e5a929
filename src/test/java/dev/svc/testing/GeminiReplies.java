package dev.svc.testing;

import dev.svc.json.Json;
import tools.jackson.databind.node.ObjectNode;

/** {@code GenerateContentResponse} bodies as Gemini and Vertex AI send them. */
public final class GeminiReplies {
  private GeminiReplies() {}

  public static String text(String text) {
    ObjectNode answer = Json.NODES.objectNode();
    ObjectNode candidate = answer.putArray("candidates").addObject();
    candidate
        .putObject("content")
        .put("role", "model")
        .putArray("parts")
        .addObject()
        .put("text", text);
    candidate.put("finishReason", "STOP");
    return answer.toString();
  }

  /** A function call with a thought signature, as Gemini 3 sends it. */
  public static String functionCall(String name, String args, String signature) {
    ObjectNode answer = Json.NODES.objectNode();
    ObjectNode candidate = answer.putArray("candidates").addObject();
    ObjectNode part =
        candidate.putObject("content").put("role", "model").putArray("parts").addObject();
    part.putObject("functionCall").put("name", name).set("args", Json.MAPPER.readTree(args));
    if (signature != null) {
      part.put("thoughtSignature", signature);
    }
    candidate.put("finishReason", "STOP");
    return answer.toString();
  }
}
