package dev.svc.definition;

import java.util.List;
import java.util.Optional;

/**
 * An argument of a prompt or a resource template.
 *
 * @param defaultValue the prompt argument's {@code default}, used when a caller sends no value;
 *     always empty for resource templates, whose shape has no {@code default}
 * @param defaultWritten whether a {@code default} was written at all, even one that is not text (a
 *     list or a map, which the shape check reports): such an argument is not warned about as one
 *     without a default, a consequence of that error
 */
public record ArgumentDefinition(
    Located<String> name,
    Optional<Located<String>> title,
    Optional<Located<String>> description,
    Optional<Located<Boolean>> required,
    List<Located<String>> completion,
    Optional<Located<String>> defaultValue,
    boolean defaultWritten) {
  public ArgumentDefinition {
    completion = List.copyOf(completion);
  }
}
