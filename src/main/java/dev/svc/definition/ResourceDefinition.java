package dev.svc.definition;

import dev.svc.diagnostic.Origin;
import java.util.List;
import java.util.Optional;

/**
 * What the user wrote for a resource or a resource template.
 *
 * @param directory where {@code file} and {@code file_template} paths start, relative to the
 *     project ({@code ""} for inline definitions, which start at the project directory)
 * @param defaultName the folder name for discovered definitions
 */
public record ResourceDefinition(
    Origin origin,
    String directory,
    Optional<String> defaultName,
    Optional<Located<String>> name,
    Optional<Located<String>> title,
    Optional<Located<String>> description,
    Optional<Located<String>> mimeType,
    Optional<Located<String>> uri,
    Optional<Located<String>> text,
    Optional<Located<String>> file,
    Optional<Located<String>> uriTemplate,
    Optional<Located<String>> textTemplate,
    Optional<Located<String>> fileTemplate,
    List<ArgumentDefinition> arguments) {
  public ResourceDefinition {
    arguments = List.copyOf(arguments);
  }
}
