package dev.svc.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A named database connection.
 *
 * @param options connector options in the order written; values may hold env placeholders
 */
public record Adapter(
    String name,
    ConnectorKind connector,
    EnvString connectionString,
    Map<String, EnvString> options) {
  public Adapter {
    options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
  }
}
