package dev.svc.definition;

import java.util.List;
import java.util.Optional;

/**
 * An argument of a prompt or a resource template.
 *
 * @param defaultValue the prompt argument's {@code default}, used when a caller sends no value;
 *     always empty for resource templates, whose shape has no {@code default}
 */
public record ArgumentDefinition(
    Located<String> name,
    Optional<Located<String>> title,
    Optional<Located<String>> description,
    Optional<Located<Boolean>> required,
    List<Located<String>> completion,
    Optional<Located<String>> defaultValue) {
  public ArgumentDefinition {
    completion = List.copyOf(completion);
  }
}
