package dev.svc.protocol.a2a;

import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** A2A v1 {@code Artifact}: an output of a task. svc's agents give one: the answer text. */
public record Artifact(
    String artifactId,
    Optional<String> name,
    Optional<String> description,
    List<Part> parts,
    Optional<ObjectNode> metadata) {

  public Artifact {
    parts = List.copyOf(parts);
  }

  public static Artifact text(String artifactId, String name, String text) {
    return new Artifact(
        artifactId,
        Optional.of(name),
        Optional.empty(),
        List.of(Part.text(text)),
        Optional.empty());
  }

  public ObjectNode toJson() {
    ObjectNode out = Wire.object();
    out.put("artifactId", artifactId);
    Wire.putIfPresent(out, "name", name);
    Wire.putIfPresent(out, "description", description);
    ArrayNode array = out.putArray("parts");
    parts.forEach(p -> array.add(p.toJson()));
    metadata.ifPresent(m -> out.set("metadata", m));
    return out;
  }

  public static Artifact fromJson(JsonNode json, String path) {
    if (!json.isObject()) {
      throw A2aErrors.invalidParams("`" + path + "` must be an object");
    }
    return new Artifact(
        Wire.requiredString(json, "artifactId", path + ".artifactId"),
        Wire.string(json, "name", path + ".name"),
        Wire.string(json, "description", path + ".description"),
        Wire.list(json, "parts", path + ".parts", Part::fromJson),
        Wire.object(json, "metadata", path + ".metadata"));
  }
}
