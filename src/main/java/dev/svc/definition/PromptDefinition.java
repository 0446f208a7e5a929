package dev.svc.definition;

import dev.svc.diagnostic.Origin;
import java.util.List;
import java.util.Optional;

/**
 * What the user wrote for a prompt: a file under the prompts directory or an inline element.
 *
 * @param defaultName the file name without {@code .terse}; empty for inline prompts
 * @param messages the {@code messages} list with its position, empty when absent
 */
public record PromptDefinition(
    Origin origin,
    Optional<String> defaultName,
    Optional<Located<String>> name,
    Optional<Located<String>> title,
    Optional<Located<String>> description,
    List<ArgumentDefinition> arguments,
    Optional<Located<List<MessageDefinition>>> messages) {
  public PromptDefinition {
    arguments = List.copyOf(arguments);
  }

  /** One message. */
  public record MessageDefinition(
      Origin origin, Optional<Located<String>> role, Optional<Located<String>> text) {}
}
