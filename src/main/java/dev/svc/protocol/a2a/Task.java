package dev.svc.protocol.a2a;

import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** A2A v1 {@code Task}: immutable; every change makes a new one. */
public record Task(
    String id,
    String contextId,
    TaskStatus status,
    List<Artifact> artifacts,
    List<Message> history,
    Optional<ObjectNode> metadata) {

  public Task {
    artifacts = List.copyOf(artifacts);
    history = List.copyOf(history);
  }

  public Task withStatus(TaskStatus status) {
    return new Task(id, contextId, status, artifacts, history, metadata);
  }

  public Task withArtifacts(List<Artifact> artifacts) {
    return new Task(id, contextId, status, artifacts, history, metadata);
  }

  public Task withHistory(List<Message> history) {
    return new Task(id, contextId, status, artifacts, history, metadata);
  }

  /**
   * The task as a client asked to see it.
   *
   * @param historyLength empty: all history; 0: none; n: the last n messages
   */
  public Task view(Optional<Integer> historyLength, boolean includeArtifacts) {
    List<Message> shown = history;
    if (historyLength.isPresent()) {
      int n = historyLength.get();
      shown = n <= 0 ? List.of() : history.subList(Math.max(0, history.size() - n), history.size());
    }
    return new Task(
        id, contextId, status, includeArtifacts ? artifacts : List.of(), shown, metadata);
  }

  public ObjectNode toJson() {
    ObjectNode out = Wire.object();
    out.put("id", id);
    out.put("contextId", contextId);
    out.set("status", status.toJson());
    if (!artifacts.isEmpty()) {
      ArrayNode array = out.putArray("artifacts");
      artifacts.forEach(a -> array.add(a.toJson()));
    }
    if (!history.isEmpty()) {
      ArrayNode array = out.putArray("history");
      history.forEach(m -> array.add(m.toJson()));
    }
    metadata.ifPresent(m -> out.set("metadata", m));
    return out;
  }

  /** Reads a task as {@link #toJson} writes it (a stored task; a client never sends one). */
  public static Task fromJson(JsonNode json, String path) {
    if (!json.isObject()) {
      throw A2aErrors.invalidParams("`" + path + "` must be an object");
    }
    return new Task(
        Wire.requiredString(json, "id", path + ".id"),
        Wire.requiredString(json, "contextId", path + ".contextId"),
        TaskStatus.fromJson(
            Wire.field(json, "status")
                .orElseThrow(() -> A2aErrors.invalidParams("`" + path + ".status` is required")),
            path + ".status"),
        Wire.list(json, "artifacts", path + ".artifacts", Artifact::fromJson),
        Wire.list(json, "history", path + ".history", Message::fromJson),
        Wire.object(json, "metadata", path + ".metadata"));
  }
}
