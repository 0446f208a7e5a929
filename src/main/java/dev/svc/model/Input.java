package dev.svc.model;

import java.util.Optional;

/**
 * A typed tool input.
 *
 * @param defaultValue the converted default ({@link InputType#convert})
 * @param required whether callers must supply it: neither optional nor defaulted
 * @param redacted whether audit lines hide its value ({@code redact}, true unless set to false)
 */
public record Input(
    String name,
    InputType type,
    Optional<String> description,
    boolean required,
    Optional<Object> defaultValue,
    boolean redacted) {

  /** An input whose value audit lines hide. */
  public Input(
      String name,
      InputType type,
      Optional<String> description,
      boolean required,
      Optional<Object> defaultValue) {
    this(name, type, description, required, defaultValue, true);
  }
}
