package dev.svc.definition;

import dev.svc.diagnostic.Origin;
import java.util.List;
import java.util.Optional;

/**
 * What the user wrote for a prompt: a file under the prompts directory or an inline element.
 *
 * @param directory where message {@code image} paths start, relative to the project: the folder of
 *     the prompt file ({@code ""} for inline prompts, which start at the project directory)
 * @param defaultName the file name without {@code .terse}; empty for inline prompts
 * @param messages the {@code messages} list with its position, empty when absent
 */
public record PromptDefinition(
    Origin origin,
    String directory,
    Optional<String> defaultName,
    Optional<Located<String>> name,
    Optional<Located<String>> title,
    Optional<Located<String>> description,
    List<ArgumentDefinition> arguments,
    Optional<Located<List<MessageDefinition>>> messages) {
  public PromptDefinition {
    arguments = List.copyOf(arguments);
  }

  /** One message; its content is one of {@code text}, {@code image} or {@code resource}. */
  public record MessageDefinition(
      Origin origin,
      Optional<Located<String>> role,
      Optional<Located<String>> text,
      Optional<Located<String>> image,
      Optional<Located<String>> mimeType,
      Optional<Located<String>> resource) {}
}
