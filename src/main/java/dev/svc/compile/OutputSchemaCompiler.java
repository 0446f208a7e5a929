package dev.svc.compile;

import dev.svc.diagnostic.Diagnostics;
import dev.svc.json.Json;
import dev.svc.project.YamlNode;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * A tool's {@code output_schema}: the JSON Schema of its {@code structuredContent}, written in
 * YAML, becomes JSON text. MCP requires the root to be an object schema ({@code type: object}); a
 * value JSON cannot hold ({@code .nan}, {@code .inf}) is reported where it is written. The schema
 * itself is the user's: svc does not check the rest of it.
 */
final class OutputSchemaCompiler {
  private final Diagnostics diagnostics;

  OutputSchemaCompiler(Diagnostics diagnostics) {
    this.diagnostics = diagnostics;
  }

  /** The schema as JSON text; empty when absent or when a problem was reported. */
  Optional<String> compile(Optional<YamlNode> written) {
    if (written.isEmpty() || !(written.get() instanceof YamlNode.Mapping root)) {
      return Optional.empty(); // not a mapping: the shape checker reported it
    }
    int errorsBefore = diagnostics.errorCount();
    Optional<YamlNode> type = root.get("type");
    if (type.isEmpty()) {
      diagnostics.error(
          "invalid-output-schema",
          root.origin(),
          "the `output_schema` has no `type`; MCP requires an object schema at its root",
          "add `type: object` and describe the fields under `properties:`");
    } else if (!(type.get() instanceof YamlNode.Scalar scalar && scalar.text().equals("object"))) {
      diagnostics.error(
          "invalid-output-schema",
          type.get().origin(),
          "the `output_schema` root has `type` "
              + (type.get() instanceof YamlNode.Scalar s ? "`" + s.text() + "`" : "as a list")
              + "; MCP requires `object` (structuredContent is always a JSON object)",
          "write `type: object`; a list result is sent as `{\"result\": [...]}`, so describe it"
              + " under `properties: {result: {type: array}}`");
    }
    JsonNode json = new YamlJson(diagnostics, "output_schema", "invalid-output-schema").json(root);
    return diagnostics.errorCount() > errorsBefore
        ? Optional.empty()
        : Optional.of(Json.MAPPER.writeValueAsString(json)); // keys in the order written
  }
}
