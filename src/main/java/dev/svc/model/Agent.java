package dev.svc.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
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
    /**
     * Options svc reads itself and never sends to the provider: model calls per task and seconds
     * per model call. Their values must be positive whole numbers.
     */
    public static final List<String> LOOP_OPTIONS = List.of("max_steps", "timeout");

    public ModelSpec {
      options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
    }

    /** Whether {@code text} is a whole number from 1 to 999,999,999. */
    public static boolean isPositiveWholeNumber(String text) {
      String value = text.strip();
      return value.matches("\\d{1,9}") && Integer.parseInt(value) > 0;
    }
  }
}
