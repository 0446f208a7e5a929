package dev.svc.runtime;

import dev.svc.call.Deadline;
import dev.svc.connector.Connector;
import dev.svc.connector.ResultShape;
import dev.svc.json.Json;
import dev.svc.log.Log;
import dev.svc.model.Execution;
import dev.svc.model.Input;
import dev.svc.model.Model;
import dev.svc.model.Tool;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The MCP {@code outputSchema} of each tool, worked out once when the runtime opens: the schema a
 * tool declares ({@code output_schema}), else, for a statement tool without an output transform,
 * one derived from its statement's result columns as the database describes them (docs/serving.md
 * "Output schemas"). Describing fails soft: a statement the database cannot describe gets no schema
 * and a warning in the log, and the tool is served as before.
 */
public final class OutputSchemas {
  private static final Log LOG = Log.tagged("runtime");

  /** How long describing every statement may take at start, all at once. */
  static final Duration DESCRIBE_TIMEOUT = Duration.ofSeconds(10);

  private final Map<String, ObjectNode> schemas;

  private OutputSchemas(Map<String, ObjectNode> schemas) {
    this.schemas = Map.copyOf(schemas);
  }

  /** The schema of {@code tool}'s {@code structuredContent}, when it has one. */
  public Optional<ObjectNode> of(String tool) {
    return Optional.ofNullable(schemas.get(tool));
  }

  /** Declared schemas, and derived ones from {@code connectors} (by adapter name), in parallel. */
  static OutputSchemas of(Model model, Map<String, Connector> connectors) {
    Map<String, ObjectNode> schemas = new ConcurrentHashMap<>();
    Deadline deadline = Deadline.after(DESCRIBE_TIMEOUT);
    try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
      for (Tool tool : model.tools()) {
        if (tool.outputSchema().isPresent()) {
          schemas.put(tool.name(), (ObjectNode) Json.MAPPER.readTree(tool.outputSchema().get()));
        } else if (tool.execution() instanceof Execution.OnAdapter on
            && tool.outputMapper().isEmpty()
            && connectors.containsKey(on.adapter())) {
          Connector connector = connectors.get(on.adapter());
          executor.submit(() ->
              describe(tool, on, connector, deadline)
                  .ifPresent(schema -> schemas.put(tool.name(), schema)));
        }
      }
    }
    Map<String, ObjectNode> ordered = new LinkedHashMap<>();
    for (Tool tool : model.tools()) {
      if (schemas.containsKey(tool.name())) {
        ordered.put(tool.name(), schemas.get(tool.name()));
      }
    }
    return new OutputSchemas(ordered);
  }

  private static Optional<ObjectNode> describe(
      Tool tool, Execution.OnAdapter on, Connector connector, Deadline deadline) {
    try {
      return connector
          .describe(on.statement(), samples(tool), deadline)
          .map(OutputSchemas::statementResult);
    } catch (RuntimeException e) {
      LOG.warn(
          "no output schema: the database could not describe the statement",
          "tool",
          tool.name(),
          "adapter",
          on.adapter(),
          "reason",
          e.getMessage());
      return Optional.empty();
    }
  }

  /**
   * A value of each input's declared type, for the database to type the statement's parameters by;
   * none for a tool with an input transform, whose statement may read other inputs.
   */
  static Map<String, Object> samples(Tool tool) {
    if (tool.inputMapper().isPresent()) {
      return Map.of();
    }
    Map<String, Object> samples = new LinkedHashMap<>();
    for (Input input : tool.inputs()) {
      samples.put(
          input.name(),
          switch (input.type()) {
            case STRING -> "";
            case INT -> 0L;
            case FLOAT -> 0.0;
            case BOOLEAN -> false;
            case DATETIME -> OffsetDateTime.of(2000, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);
          });
    }
    return samples;
  }

  /**
   * The schema of a statement tool's {@code structuredContent}: {@code {"rows": [...]}} with the
   * truncation fields a capped result adds (docs/results.md).
   */
  static ObjectNode statementResult(ResultShape shape) {
    ObjectNode row = Json.NODES.objectNode().put("type", "object");
    ObjectNode columns = row.putObject("properties");
    // instanceof, not a pattern switch: the start-up cache cannot hold a pattern switch's
    // generated class, and every statement tool's schema is made at start (docs/cli.md)
    if (shape instanceof ResultShape.Rows rows) {
      for (ResultShape.Column column : rows.columns()) {
        columns.set(column.label(), column(column)); // a repeated label: the last one wins
      }
    } else {
      columns.putObject("rows_affected").put("type", "integer"); // ResultShape.RowsAffected
    }
    ArrayNode required = row.putArray("required");
    columns.propertyNames().forEach(required::add);

    ObjectNode schema = Json.NODES.objectNode().put("type", "object");
    ObjectNode properties = schema.putObject("properties");
    properties.putObject("rows").put("type", "array").set("items", row);
    properties.putObject("truncated").put("type", "boolean");
    properties.putObject("returned_rows").put("type", "integer");
    properties
        .putObject("limit")
        .put("type", "string")
        .putArray("enum")
        .add("max_rows")
        .add("max_bytes");
    properties.putObject("next_cursor").put("type", "string");
    schema.putArray("required").add("rows");
    return schema;
  }

  private static ObjectNode column(ResultShape.Column column) {
    ObjectNode property = Json.NODES.objectNode();
    List<String> types = column.jsonTypes();
    if (types.isEmpty()) {
      return property; // any JSON value, null included
    }
    ArrayNode type = property.putArray("type");
    types.forEach(type::add);
    if (column.nullable()) {
      type.add("null");
    }
    return property;
  }
}
