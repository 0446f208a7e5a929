package dev.svc.definition;

import dev.svc.diagnostic.Origin;
import java.util.List;
import java.util.Optional;

/** A {@code tool_access} block of the root file or of an agent. */
public record ToolAccessDefinition(
    Origin origin,
    Optional<Located<String>> mode,
    Optional<Located<List<Located<String>>>> tools) {}
