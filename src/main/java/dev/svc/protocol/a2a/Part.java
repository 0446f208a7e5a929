package dev.svc.protocol.a2a;

import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A2A v1 {@code Part}: exactly one content ({@code text}, {@code raw} bytes in base64, {@code url}
 * or {@code data}, any JSON value) plus optional metadata, filename and media type.
 */
public record Part(
    Content content,
    Optional<ObjectNode> metadata,
    Optional<String> filename,
    Optional<String> mediaType) {

  /** The {@code oneof content} of a part. */
  public sealed interface Content {}

  public record Text(String text) implements Content {}

  /** Bytes, as the base64 text of the wire. */
  public record Raw(String base64) implements Content {}

  public record Url(String url) implements Content {}

  public record Data(JsonNode data) implements Content {}

  public static Part text(String text) {
    return new Part(new Text(text), Optional.empty(), Optional.empty(), Optional.of("text/plain"));
  }

  public ObjectNode toJson() {
    ObjectNode out = Wire.object();
    switch (content) {
      case Text t -> out.put("text", t.text());
      case Raw r -> out.put("raw", r.base64());
      case Url u -> out.put("url", u.url());
      case Data d -> out.set("data", d.data());
    }
    metadata.ifPresent(m -> out.set("metadata", m));
    Wire.putIfPresent(out, "filename", filename);
    Wire.putIfPresent(out, "mediaType", mediaType);
    return out;
  }

  public static Part fromJson(JsonNode json, String path) {
    if (!json.isObject()) {
      throw A2aErrors.invalidParams("`" + path + "` must be an object");
    }
    int kinds = 0;
    Content content = null;
    if (Wire.field(json, "text").isPresent()) {
      kinds++;
      content = new Text(Wire.string(json, "text", path + ".text").orElseThrow());
    }
    if (Wire.field(json, "raw").isPresent()) {
      kinds++;
      content = new Raw(Wire.string(json, "raw", path + ".raw").orElseThrow());
    }
    if (Wire.field(json, "url").isPresent()) {
      kinds++;
      content = new Url(Wire.string(json, "url", path + ".url").orElseThrow());
    }
    if (Wire.field(json, "data").isPresent()) {
      kinds++;
      content = new Data(Wire.shallow(json, "data", path + ".data").orElseThrow());
    }
    if (kinds != 1) {
      throw A2aErrors.invalidParams(
          "`" + path + "` must have exactly one of `text`, `raw`, `url` or `data`");
    }
    return new Part(
        content,
        Wire.shallowObject(json, "metadata", path + ".metadata"),
        Wire.string(json, "filename", path + ".filename"),
        Wire.string(json, "mediaType", path + ".mediaType"));
  }
}
