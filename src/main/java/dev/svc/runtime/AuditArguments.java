package dev.svc.runtime;

import dev.svc.json.Json;
import dev.svc.model.Tool;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Arguments as the audit trail shows them: every key the caller sent, each value replaced by
 * {@value #REDACTED} unless the tool declares that input with {@code redact: false}. Keys that are
 * not inputs, and non-object arguments, are redacted too. For the built-in {@code search}, only
 * {@code limit} is shown.
 */
final class AuditArguments {
  static final String REDACTED = "[redacted]";

  private AuditArguments() {}

  static JsonNode redact(Optional<Tool> tool, JsonNode arguments) {
    ObjectNode shown = Json.NODES.objectNode();
    if (arguments == null || arguments.isNull()) {
      return shown;
    }
    if (!arguments.isObject()) {
      return Json.NODES.stringNode(REDACTED);
    }
    for (Map.Entry<String, JsonNode> entry : arguments.properties()) {
      String name = entry.getKey();
      boolean plain =
          tool.isPresent()
              ? tool.get().inputs().stream()
                  .anyMatch(input -> input.name().equals(name) && !input.redacted())
              : name.equals("limit");
      shown.set(name, plain ? entry.getValue() : Json.NODES.stringNode(REDACTED));
    }
    return shown;
  }
}
