package dev.svc.definition;

import java.util.List;
import java.util.Optional;

/** An argument of a prompt or a resource template. */
public record ArgumentDefinition(
    Located<String> name,
    Optional<Located<String>> title,
    Optional<Located<String>> description,
    Optional<Located<Boolean>> required,
    List<Located<String>> completion) {
  public ArgumentDefinition {
    completion = List.copyOf(completion);
  }
}
