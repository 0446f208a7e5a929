package dev.svc.model;

import java.util.Optional;

/** A concrete resource, served at its URI. */
public record Resource(
    String uri,
    String name,
    Optional<String> title,
    Optional<String> description,
    Optional<String> mimeType,
    Content content) {

  /** Where a resource's content comes from. */
  public sealed interface Content {}

  /** Inline text. */
  public record InlineText(String text) implements Content {}

  /** A file, relative to the project directory. */
  public record ContentFile(String path) implements Content {}

  /** A file's content embedded by {@code svc build}; {@code path} keeps its name for MIME types. */
  public record EmbeddedFile(String path, Bytes bytes) implements Content {}
}
