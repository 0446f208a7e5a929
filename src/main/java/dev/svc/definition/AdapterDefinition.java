package dev.svc.definition;

import dev.svc.diagnostic.Origin;
import java.util.List;
import java.util.Optional;

/**
 * What the user wrote in an adapter file.
 *
 * @param origin start of the file
 * @param fileName the file name without {@code .terse}, the default name
 */
public record AdapterDefinition(
    Origin origin,
    String fileName,
    Optional<Located<String>> name,
    Optional<Located<String>> connector,
    Optional<Located<String>> connectionString,
    List<NamedValue> options) {
  public AdapterDefinition {
    options = List.copyOf(options);
  }
}
