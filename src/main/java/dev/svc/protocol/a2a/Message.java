package dev.svc.protocol.a2a;

import dev.svc.call.ClientText;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** A2A v1 {@code Message}: one turn of the conversation. */
public record Message(
    String messageId,
    Optional<String> contextId,
    Optional<String> taskId,
    Role role,
    List<Part> parts,
    Optional<ObjectNode> metadata,
    List<String> extensions,
    List<String> referenceTaskIds) {

  public Message {
    parts = List.copyOf(parts);
    extensions = List.copyOf(extensions);
    referenceTaskIds = List.copyOf(referenceTaskIds);
  }

  /** An agent message with one text part. */
  public static Message agent(String text, String contextId, String taskId) {
    return new Message(
        UUID.randomUUID().toString(),
        Optional.of(contextId),
        Optional.of(taskId),
        Role.AGENT,
        List.of(Part.text(text)),
        Optional.empty(),
        List.of(),
        List.of());
  }

  /** The same message, placed in a task. */
  public Message inTask(String contextId, String taskId) {
    return new Message(
        messageId,
        Optional.of(contextId),
        Optional.of(taskId),
        role,
        parts,
        metadata,
        extensions,
        referenceTaskIds);
  }

  public ObjectNode toJson() {
    ObjectNode out = Wire.object();
    out.put("messageId", messageId);
    Wire.putIfPresent(out, "contextId", contextId);
    Wire.putIfPresent(out, "taskId", taskId);
    out.put("role", role.wireName());
    ArrayNode array = out.putArray("parts");
    parts.forEach(p -> array.add(p.toJson()));
    metadata.ifPresent(m -> out.set("metadata", m));
    Wire.putStrings(out, "extensions", extensions);
    Wire.putStrings(out, "referenceTaskIds", referenceTaskIds);
    return out;
  }

  public static Message fromJson(JsonNode json, String path) {
    if (!json.isObject()) {
      throw A2aErrors.invalidParams("`" + path + "` must be an object");
    }
    String messageId = Wire.requiredId(json, "messageId", path + ".messageId");
    String roleText = Wire.requiredString(json, "role", path + ".role");
    Role role =
        Role.parse(roleText)
            .filter(r -> r != Role.UNSPECIFIED)
            .orElseThrow(() ->
                A2aErrors.invalidParams(
                    "`"
                        + path
                        + ".role` must be ROLE_USER or ROLE_AGENT, not "
                        + ClientText.shown(roleText)));
    List<Part> parts = Wire.list(json, "parts", path + ".parts", Part::fromJson);
    if (parts.isEmpty()) {
      throw A2aErrors.invalidParams("`" + path + ".parts` must have at least one part");
    }
    return new Message(
        messageId,
        Wire.id(json, "contextId", path + ".contextId").filter(s -> !s.isEmpty()),
        Wire.id(json, "taskId", path + ".taskId").filter(s -> !s.isEmpty()),
        role,
        parts,
        Wire.shallowObject(json, "metadata", path + ".metadata"),
        Wire.strings(json, "extensions", path + ".extensions"),
        Wire.strings(json, "referenceTaskIds", path + ".referenceTaskIds"));
  }
}
