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
}
