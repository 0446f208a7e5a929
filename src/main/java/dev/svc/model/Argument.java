package dev.svc.model;

import java.util.List;
import java.util.Optional;

/** An argument of a prompt or resource template, with its completion values. */
public record Argument(
    String name,
    Optional<String> title,
    Optional<String> description,
    boolean required,
    List<String> completion) {
  public Argument {
    completion = List.copyOf(completion);
  }
}
