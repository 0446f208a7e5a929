package dev.svc.protocol.a2a;

import tools.jackson.databind.node.ObjectNode;

/**
 * A2A v1 {@code StreamResponse}: one event of a stream (and the body of a push notification). A
 * task stream starts with the task, then status and artifact updates, and closes at a terminal
 * state; v1 has no {@code final} flag and no {@code kind}.
 */
public sealed interface StreamResponse {

  ObjectNode toJson();

  /** The task this event belongs to. */
  String taskId();

  record TaskEvent(Task task) implements StreamResponse {
    @Override
    public ObjectNode toJson() {
      ObjectNode out = Wire.object();
      out.set("task", task.toJson());
      return out;
    }

    @Override
    public String taskId() {
      return task.id();
    }
  }

  record StatusUpdate(String taskId, String contextId, TaskStatus status)
      implements StreamResponse {
    @Override
    public ObjectNode toJson() {
      ObjectNode out = Wire.object();
      ObjectNode event = out.putObject("statusUpdate");
      event.put("taskId", taskId);
      event.put("contextId", contextId);
      event.set("status", status.toJson());
      return out;
    }
  }

  /**
   * @param append the parts extend the artifact sent before under the same id
   * @param lastChunk this is the artifact's last chunk
   */
  record ArtifactUpdate(
      String taskId, String contextId, Artifact artifact, boolean append, boolean lastChunk)
      implements StreamResponse {
    @Override
    public ObjectNode toJson() {
      ObjectNode out = Wire.object();
      ObjectNode event = out.putObject("artifactUpdate");
      event.put("taskId", taskId);
      event.put("contextId", contextId);
      event.set("artifact", artifact.toJson());
      if (append) {
        event.put("append", true);
      }
      if (lastChunk) {
        event.put("lastChunk", true);
      }
      return out;
    }
  }
}
