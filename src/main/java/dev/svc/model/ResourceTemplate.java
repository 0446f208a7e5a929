package dev.svc.model;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** A resource template: an RFC 6570 URI template and content with {@code {{ arg }}} holes. */
public record ResourceTemplate(
    String uriTemplate,
    String name,
    Optional<String> title,
    Optional<String> description,
    Optional<String> mimeType,
    List<Argument> arguments,
    Content content) {
  public ResourceTemplate {
    arguments = List.copyOf(arguments);
  }

  /** Where a template's content comes from. */
  public sealed interface Content {}

  /** An inline text template. */
  public record InlineTemplate(String text) implements Content {}

  /**
   * A file whose path may hold placeholders.
   *
   * @param directory where the path starts, relative to the project directory
   * @param pathTemplate the path as written
   */
  public record FileTemplate(String directory, String pathTemplate) implements Content {}

  /**
   * A file template whose files {@code svc build} embedded: every file under its directory, keyed
   * by its path relative to that directory.
   */
  public record EmbeddedFiles(String pathTemplate, Map<String, Bytes> files) implements Content {
    public EmbeddedFiles {
      files = Collections.unmodifiableMap(new TreeMap<>(files));
    }
  }
}
