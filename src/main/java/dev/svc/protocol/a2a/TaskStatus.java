package dev.svc.protocol.a2a;

import java.time.Instant;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** A2A v1 {@code TaskStatus}: the state, an optional agent message, and when it was reached. */
public record TaskStatus(TaskState state, Optional<Message> message, Instant timestamp) {

  public static TaskStatus of(TaskState state, Instant timestamp) {
    return new TaskStatus(state, Optional.empty(), timestamp);
  }

  public ObjectNode toJson() {
    ObjectNode out = Wire.object();
    out.put("state", state.wireName());
    message.ifPresent(m -> out.set("message", m.toJson()));
    out.put("timestamp", Wire.timestamp(timestamp));
    return out;
  }

  public static TaskStatus fromJson(JsonNode json, String path) {
    if (!json.isObject()) {
      throw A2aErrors.invalidParams("`" + path + "` must be an object");
    }
    String state = Wire.requiredString(json, "state", path + ".state");
    return new TaskStatus(
        TaskState.parse(state)
            .orElseThrow(() ->
                A2aErrors.invalidParams("`" + path + ".state` is not a task state: " + state)),
        Wire.field(json, "message").map(m -> Message.fromJson(m, path + ".message")),
        Wire.parseTimestamp(
            Wire.requiredString(json, "timestamp", path + ".timestamp"), path + ".timestamp"));
  }
}
