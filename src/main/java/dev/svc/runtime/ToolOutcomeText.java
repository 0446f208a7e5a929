package dev.svc.runtime;

import dev.svc.json.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A tool call's outcome as its caller reads it, the same for an MCP client (the result's text
 * content) and an agent's model (docs/results.md): a success's payload as JSON, or, when a cap cut
 * it, the JSON of the whole envelope ({@code {"rows": […], "truncated": true, …}}); a failure's
 * message. Also the structured content of a success, which MCP sends beside the text.
 */
public final class ToolOutcomeText {
  private ToolOutcomeText() {}

  public static String of(ToolOutcome outcome) {
    return switch (outcome) {
      case ToolOutcome.Success success -> {
        String json = payloadJson(success);
        yield success.truncation().isPresent() ? structured(success, json) : json;
      }
      case ToolOutcome.Failure failure -> failure.message();
    };
  }

  /** The payload's JSON: as the pipeline wrote it to measure it, else written now. */
  public static String payloadJson(ToolOutcome.Success success) {
    return success.json().orElseGet(() -> Json.MAPPER.writeValueAsString(success.payload()));
  }

  /**
   * The structured content of a success, from its payload's JSON (written once): an object is
   * itself; a list is {@code {"rows"|"result": […]}} with the truncation fields when a cap cut it;
   * anything else {@code {"result": x}}.
   */
  public static String structured(ToolOutcome.Success success, String json) {
    if (success.payload().isObject()) {
      return json;
    }
    String key = success.payload().isArray() ? success.envelope().key() : "result";
    StringBuilder out = new StringBuilder(json.length() + 160);
    out.append("{\"").append(key).append("\":").append(json);
    success
        .truncation()
        .ifPresent(t -> {
          out.append(",\"truncated\":true,\"returned_rows\":")
              .append(t.returnedRows())
              .append(",\"limit\":\"")
              .append(t.limit().wireName())
              .append('"');
          t.nextCursor()
              .ifPresent(
                  c -> out.append(",\"next_cursor\":").append(Json.MAPPER.writeValueAsString(c)));
        });
    return out.append('}').toString();
  }

  /**
   * What an agent's model is given as the answer of a successful call: the payload, or the envelope
   * when a cap cut it (the same JSON as {@link #of}).
   */
  public static JsonNode forModel(ToolOutcome.Success success) {
    if (success.truncation().isEmpty()) {
      return success.payload();
    }
    Truncation t = success.truncation().get();
    ObjectNode envelope = Json.NODES.objectNode();
    envelope.set(success.envelope().key(), success.payload());
    envelope.put("truncated", true);
    envelope.put("returned_rows", t.returnedRows());
    envelope.put("limit", t.limit().wireName());
    t.nextCursor().ifPresent(c -> envelope.put("next_cursor", c));
    return envelope;
  }
}
