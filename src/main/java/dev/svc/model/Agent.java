package dev.svc.model;

import java.util.Map;
import java.util.Optional;

/**
 * A compiled agent.
 *
 * @param toolAccess the effective access, with {@code inherit} already resolved
 */
public record Agent(
    String name,
    Optional<String> description,
    String instruction,
    ModelSpec model,
    ToolAccess toolAccess) {

  /**
   * The model behind an agent.
   *
   * @param options option values as strings (stringified at compile time), env placeholders kept
   */
  public record ModelSpec(Provider provider, String model, Map<String, EnvString> options) {
    public ModelSpec {
      options = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(options));
    }
  }
}
