package dev.svc.connector;

import dev.svc.model.ConnectorKind;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An adapter with its env placeholders filled in: what a connector opens. Holds secrets, so it is
 * never logged or written anywhere; {@link #toString()} hides them.
 *
 * @param projectDirectory where relative SQLite paths ({@code file:./x.db}) start
 */
public record ResolvedAdapter(
    String name,
    ConnectorKind connector,
    String connectionString,
    Map<String, String> options,
    Path projectDirectory) {
  public ResolvedAdapter {
    options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
  }

  @Override
  public String toString() {
    return "adapter " + name + " (" + connector.wireName() + ")";
  }
}
