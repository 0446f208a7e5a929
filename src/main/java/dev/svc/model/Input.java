package dev.svc.model;

import java.util.Optional;

/**
 * A typed tool input.
 *
 * @param defaultValue the converted default ({@link InputType#convert})
 * @param required whether callers must supply it: neither optional nor defaulted
 * @param redacted whether audit lines hide its value ({@code redact}, true unless set to false)
 * @param header the {@code Mcp-Param-<header>} HTTP header 2026-07-28 clients copy the value into
 *     (MCP {@code x-mcp-header}); a valid RFC 9110 token, unique in its tool ignoring case
 */
public record Input(
    String name,
    InputType type,
    Optional<String> description,
    boolean required,
    Optional<Object> defaultValue,
    boolean redacted,
    Optional<String> header) {

  /** An input sent in no header of its own. */
  public Input(
      String name,
      InputType type,
      Optional<String> description,
      boolean required,
      Optional<Object> defaultValue,
      boolean redacted) {
    this(name, type, description, required, defaultValue, redacted, Optional.empty());
  }

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
