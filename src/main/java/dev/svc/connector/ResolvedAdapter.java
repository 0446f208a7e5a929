package dev.svc.connector;

import dev.svc.model.Adapter;
import dev.svc.model.ConnectorKind;
import dev.svc.model.EnvString;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * An adapter with its env placeholders filled in: what a connector opens. Holds secrets, so it is
 * never logged or written anywhere; {@link #toString()} hides them.
 *
 * @param projectDirectory where an adapter's files (SQLite seed scripts) are read from
 * @param dataDirectory where relative SQLite database paths ({@code file:./x.db}) start: {@code
 *     SVC_DATA_DIR} when set (a container image's writable volume), else the project directory
 */
public record ResolvedAdapter(
    String name,
    ConnectorKind connector,
    String connectionString,
    Map<String, String> options,
    Path projectDirectory,
    Path dataDirectory) {
  public ResolvedAdapter {
    options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
  }

  /** An adapter whose databases live in its project directory. */
  public ResolvedAdapter(
      String name,
      ConnectorKind connector,
      String connectionString,
      Map<String, String> options,
      Path projectDirectory) {
    this(name, connector, connectionString, options, projectDirectory, projectDirectory);
  }

  /**
   * {@code adapter} with its connection string and options filled in from {@code environment}.
   *
   * @throws dev.svc.model.MissingVariableException naming a variable that is not set
   */
  public static ResolvedAdapter of(
      Adapter adapter,
      Function<String, Optional<String>> environment,
      Path projectDirectory,
      Path dataDirectory) {
    Map<String, String> options = new LinkedHashMap<>();
    for (Map.Entry<String, EnvString> option : adapter.options().entrySet()) {
      options.put(option.getKey(), option.getValue().resolve(environment));
    }
    return new ResolvedAdapter(
        adapter.name(),
        adapter.connector(),
        adapter.connectionString().resolve(environment),
        options,
        projectDirectory,
        dataDirectory);
  }

  @Override
  public String toString() {
    return "adapter " + name + " (" + connector.wireName() + ")";
  }
}
