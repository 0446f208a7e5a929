package dev.svc.protocol.a2a;

import dev.svc.json.JsonFootprint;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/**
 * An estimate of the heap one task takes, for {@link InMemoryTaskStore}'s byte budget: its messages
 * and artifacts, part by part (text one byte a character, as the JVM's compact strings hold most
 * text; data and metadata as {@link JsonFootprint} estimates them), plus a fixed cost per task,
 * message and part. Cheap: one pass over the parts, nothing serialized.
 */
final class TaskWeight {
  static final int TASK = 512;
  static final int MESSAGE = 256;
  static final int PART = 128;

  private TaskWeight() {}

  static long of(Task task) {
    long bytes = TASK + metadata(task.metadata());
    for (Message message : task.history()) {
      bytes += of(message);
    }
    for (Artifact artifact : task.artifacts()) {
      bytes += MESSAGE + parts(artifact.parts()) + metadata(artifact.metadata());
    }
    return bytes + task.status().message().map(TaskWeight::of).orElse(0L);
  }

  /** A push config: its strings, one byte a character, and the fixed cost of a message. */
  static long of(PushConfig config) {
    return MESSAGE
        + config.id().length()
        + config.taskId().length()
        + config.url().length()
        + config.token().map(String::length).orElse(0)
        + config
            .authentication()
            .map(a -> a.scheme().length() + a.credentials().length())
            .orElse(0);
  }

  private static long of(Message message) {
    return MESSAGE
        + parts(message.parts())
        + metadata(message.metadata())
        + strings(message.extensions())
        + strings(message.referenceTaskIds());
  }

  /** A list of strings a client sent (extension URIs, referenced task ids). */
  private static long strings(List<String> strings) {
    long bytes = 0;
    for (String s : strings) {
      bytes += JsonFootprint.STRING + s.length();
    }
    return bytes;
  }

  private static long parts(List<Part> parts) {
    long bytes = 0;
    for (Part part : parts) {
      bytes +=
          PART
              + metadata(part.metadata())
              + part.filename().map(String::length).orElse(0)
              + part.mediaType().map(String::length).orElse(0)
              + switch (part.content()) {
                case Part.Text text -> text.text().length();
                case Part.Raw raw -> raw.base64().length();
                case Part.Url url -> url.url().length();
                case Part.Data data -> JsonFootprint.of(data.data());
              };
    }
    return bytes;
  }

  private static long metadata(Optional<ObjectNode> metadata) {
    return metadata.map(JsonFootprint::of).orElse(0L);
  }
}
