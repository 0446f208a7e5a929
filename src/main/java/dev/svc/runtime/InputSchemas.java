package dev.svc.runtime;

import dev.svc.json.Json;
import dev.svc.model.Input;
import dev.svc.model.InputType;
import dev.svc.model.Tool;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The JSON Schema of a tool's inputs, as {@code tools/list} shows it (docs/decisions.md "Tools"),
 * with the optional {@code cursor} of tools that offer continuation (docs/results.md); or the
 * schema the tool declares ({@code input_schema}), as written.
 */
public final class InputSchemas {
  private InputSchemas() {}

  public static ObjectNode of(Tool tool) {
    if (tool.inputSchema().isPresent()) {
      // a fresh copy on every call: callers may change what they get
      return (ObjectNode) Json.MAPPER.readTree(tool.inputSchema().get());
    }
    ObjectNode schema = Json.NODES.objectNode();
    schema.put("type", "object");
    ObjectNode properties = schema.putObject("properties");
    ArrayNode required = Json.NODES.arrayNode();
    for (Input input : tool.inputs()) {
      ObjectNode property = properties.putObject(input.name());
      property.put("type", input.type().jsonType());
      if (input.type() == InputType.DATETIME) {
        property.put("format", "date-time");
      }
      input.description().ifPresent(d -> property.put("description", d));
      input.header().ifPresent(h -> property.put("x-mcp-header", h));
      input
          .defaultValue()
          .ifPresent(value -> {
            switch (value) {
              case Long l -> property.put("default", l);
              case Double d -> property.put("default", d);
              case Boolean b -> property.put("default", b);
              default -> property.put("default", String.valueOf(value));
            }
          });
      if (input.required()) {
        required.add(input.name());
      }
    }
    if (PageCursors.offeredBy(tool)) {
      properties
          .putObject(PageCursors.INPUT)
          .put("type", "string")
          .put(
              "description",
              "To continue a truncated result: its `next_cursor`, with the same other inputs."
                  + " Leave it out for the first page.");
    }
    if (!required.isEmpty()) {
      schema.set("required", required);
    }
    schema.put("additionalProperties", false);
    return schema;
  }
}
