package dev.svc.runtime;

import java.util.Map;
import java.util.Optional;

/** Reading a verified token's claims by name: {@code sub}, or a dotted path such as {@code a.b}. */
final class Claims {
  private Claims() {}

  /** The value at {@code path}; empty when a step is missing or not an object. */
  static Optional<Object> at(Map<String, Object> claims, String path) {
    Object current = claims;
    for (String step : path.split("\\.")) {
      if (!(current instanceof Map<?, ?> object) || !object.containsKey(step)) {
        return Optional.empty();
      }
      current = object.get(step);
    }
    return Optional.ofNullable(current);
  }
}
