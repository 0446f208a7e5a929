package dev.svc.project;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The variables a project sees: the process environment, then {@code .env} in the working
 * directory, then {@code .env} in the project directory. Earlier sources win. Values are never
 * printed.
 */
public final class Environment {
  private final Map<String, String> variables;
  private final Optional<String> fallback;

  private Environment(Map<String, String> variables, Optional<String> fallback) {
    this.variables = Map.copyOf(variables);
    this.fallback = fallback;
  }

  private Environment(Map<String, String> variables) {
    this(variables, Optional.empty());
  }

  /**
   * This environment, answering {@code value} for every variable it does not have: for runs that
   * must not depend on secrets (the start-up training of {@code svc build}).
   */
  public Environment withFallback(String value) {
    return new Environment(variables, Optional.of(value));
  }

  public static Environment of(Map<String, String> variables) {
    return new Environment(variables);
  }

  public static Environment load(Path workingDirectory, Path projectDirectory) {
    return load(workingDirectory, projectDirectory, System.getenv());
  }

  public static Environment load(
      Path workingDirectory, Path projectDirectory, Map<String, String> processEnvironment) {
    Map<String, String> merged = new HashMap<>();
    Path cwd = workingDirectory.toAbsolutePath().normalize();
    Path project = projectDirectory.toAbsolutePath().normalize();
    if (!project.equals(cwd)) {
      merged.putAll(DotEnv.read(project.resolve(".env")));
    }
    merged.putAll(DotEnv.read(cwd.resolve(".env")));
    merged.putAll(processEnvironment);
    return new Environment(merged);
  }

  public Optional<String> get(String name) {
    String value = variables.get(name);
    return value != null ? Optional.of(value) : fallback;
  }

  /** Every variable whose name starts with {@code prefix} (e.g. {@code OTEL_}), sorted by name. */
  public SortedMap<String, String> withPrefix(String prefix) {
    SortedMap<String, String> found = new TreeMap<>();
    variables.forEach((name, value) -> {
      if (name.startsWith(prefix)) {
        found.put(name, value);
      }
    });
    return found;
  }

  public boolean has(String name) {
    return variables.containsKey(name);
  }
}
