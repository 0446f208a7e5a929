package dev.svc.definition;

import dev.svc.diagnostic.Origin;
import java.util.List;
import java.util.Optional;

/** What the user wrote in an agent's {@code config.terse}. */
public record AgentDefinition(
    Origin origin,
    String directoryName,
    Optional<Located<String>> name,
    Optional<Located<String>> description,
    Optional<Located<String>> instruction,
    Optional<ModelDefinition> model,
    Optional<ToolAccessDefinition> toolAccess) {

  /** The {@code model} block. */
  public record ModelDefinition(
      Origin origin,
      Optional<Located<String>> provider,
      Optional<Located<String>> model,
      List<NamedValue> options) {
    public ModelDefinition {
      options = List.copyOf(options);
    }
  }
}
