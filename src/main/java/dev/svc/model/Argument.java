package dev.svc.model;

import java.util.List;
import java.util.Optional;

/**
 * An argument of a prompt or resource template, with its completion values.
 *
 * @param defaultValue what a prompt's messages use when the caller sends no value; empty for
 *     resource templates and for prompt arguments without a {@code default}, whose placeholders
 *     then stay as written
 */
public record Argument(
    String name,
    Optional<String> title,
    Optional<String> description,
    boolean required,
    List<String> completion,
    Optional<String> defaultValue) {
  public Argument {
    completion = List.copyOf(completion);
  }
}
