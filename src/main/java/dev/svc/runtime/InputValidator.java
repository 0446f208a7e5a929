package dev.svc.runtime;

import dev.svc.call.ClientText;
import dev.svc.json.Json;
import dev.svc.json.JsonSchema;
import dev.svc.model.Input;
import dev.svc.model.InputType;
import dev.svc.model.Tool;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Checks a call's arguments against a tool's inputs (docs/decisions.md "Tools"): required inputs
 * present, no undeclared keys, values converted to their declared type, defaults filled in; or, for
 * a tool that declares an {@code input_schema}, against that schema, the arguments passed on as
 * sent. Every problem is reported in one line.
 */
final class InputValidator {
  private InputValidator() {}

  /** Validated inputs, or the one-line message of everything wrong. */
  sealed interface Result {}

  /**
   * @param inputs the tool's own inputs, converted, defaults filled in
   * @param cursor the continuation cursor, for a tool that offers one (docs/results.md)
   */
  record Valid(ObjectNode inputs, Optional<String> cursor) implements Result {
    Valid(ObjectNode inputs) {
      this(inputs, Optional.empty());
    }
  }

  record Invalid(String message) implements Result {}

  static Result validate(Tool tool, JsonNode arguments) {
    if (arguments != null
        && !arguments.isNull()
        && !arguments.isMissingNode()
        && !arguments.isObject()) {
      return new Invalid("invalid arguments: expected an object of named inputs");
    }
    List<String> problems = new ArrayList<>();
    ObjectNode inputs = Json.NODES.objectNode();
    Optional<String> cursor = Optional.empty();
    boolean cursors = PageCursors.offeredBy(tool);
    if (arguments != null && arguments.isObject()) {
      for (Map.Entry<String, JsonNode> entry : arguments.properties()) {
        if (cursors && entry.getKey().equals(PageCursors.INPUT)) {
          if (entry.getValue().isString()) {
            cursor = Optional.of(entry.getValue().asString()).filter(c -> !c.isEmpty());
          } else if (!entry.getValue().isNull()) {
            problems.add("`cursor` must be a string: a result's `next_cursor`");
          }
        } else if (tool.input(entry.getKey()).isEmpty()) {
          // past the listed ones only the count matters: no text for each of 50,000 stray keys
          problems.add(
              problems.size() < MAX_LISTED
                  ? "unknown input `" + ClientText.shown(entry.getKey()) + "`" + known(tool)
                  : "");
        }
      }
    }
    for (Input input : tool.inputs()) {
      JsonNode value = arguments == null ? null : arguments.get(input.name());
      if (value == null || value.isNull()) {
        if (input.defaultValue().isPresent()) {
          inputs.set(input.name(), node(input.defaultValue().get()));
        } else if (input.required()) {
          problems.add("missing required input `" + input.name() + "`");
        }
        continue;
      }
      convert(input.type(), value)
          .ifPresentOrElse(
              converted -> inputs.set(input.name(), converted),
              () -> problems.add("`" + input.name() + "` must be " + expected(input.type())));
    }
    return problems.isEmpty()
        ? new Valid(inputs, cursor)
        : new Invalid(
            message(problems.subList(0, Math.min(MAX_LISTED, problems.size())), problems.size()));
  }

  /**
   * The first {@link #MAX_LISTED} problems, and how many more: a model reads the message, and a
   * call with thousands of unknown keys must not answer with megabytes.
   */
  private static String message(List<String> listed, int total) {
    String first = "invalid arguments: " + String.join("; ", listed);
    return total > listed.size() ? first + "; and " + (total - listed.size()) + " more" : first;
  }

  /** Most schema problems one message lists; the rest are counted. */
  static final int MAX_LISTED = 5;

  /**
   * Checks arguments against a tool's declared input schema: valid arguments are the inputs as sent
   * (absent ones are {@code {}}), a problem names where in the arguments it is and which keyword of
   * the schema it breaks.
   */
  static Result validate(JsonSchema schema, JsonNode arguments) {
    if (arguments == null || arguments.isNull() || arguments.isMissingNode()) {
      arguments = Json.NODES.objectNode();
    }
    if (!(arguments instanceof ObjectNode object)) {
      return new Invalid("invalid arguments: expected an object");
    }
    List<JsonSchema.Problem> problems = schema.problems(object);
    if (problems.isEmpty()) {
      return new Valid(object);
    }
    List<String> lines = new ArrayList<>();
    for (JsonSchema.Problem problem : problems.subList(0, Math.min(MAX_LISTED, problems.size()))) {
      lines.add(
          (problem.location().isEmpty()
                  ? "arguments"
                  : "`" + ClientText.shown(problem.location()) + "`")
              + ": "
              + problem.message()
              + (problem.schemaPath().isEmpty()
                  ? ""
                  : " (keyword `" + problem.keyword() + "` at `" + problem.schemaPath() + "`)"));
    }
    return new Invalid(message(lines, problems.size()));
  }

  private static String known(Tool tool) {
    return tool.inputs().isEmpty()
        ? " (this tool takes no inputs)"
        : " (inputs: " + String.join(", ", tool.inputs().stream().map(Input::name).toList()) + ")";
  }

  static Optional<JsonNode> convert(InputType type, JsonNode value) {
    return switch (type) {
      case STRING ->
          value.isString() || value.isNumber() || value.isBoolean()
              ? Optional.of(Json.NODES.stringNode(value.asString()))
              : Optional.empty();
      case INT -> integer(value);
      case FLOAT -> {
        if (value.isNumber()) {
          // a number beyond a double's range (an agent's model may write 1e400) is no float
          double number = value.asDouble();
          yield Double.isFinite(number)
              ? Optional.of(Json.NODES.numberNode(number))
              : Optional.empty();
        }
        yield value.isString()
            ? type.convert(value.asString()).map(d -> Json.NODES.numberNode((Double) d))
            : Optional.empty();
      }
      case BOOLEAN -> {
        if (value.isBoolean()) {
          yield Optional.of(value);
        }
        yield value.isString()
            ? type.convert(value.asString()).map(b -> Json.NODES.booleanNode((Boolean) b))
            : Optional.empty();
      }
      case DATETIME ->
          value.isString() && InputType.isDateTime(value.asString().strip())
              ? Optional.of(Json.NODES.stringNode(value.asString().strip()))
              : Optional.empty();
    };
  }

  private static Optional<JsonNode> integer(JsonNode value) {
    if (value.isIntegralNumber() && value.canConvertToLong()) {
      return Optional.of(Json.NODES.numberNode(value.asLong()));
    }
    if (value.isFloatingPointNumber()) {
      if ((value.isDouble() || value.isFloat()) && !Double.isFinite(value.asDouble())) {
        return Optional.empty(); // infinity has no decimal value
      }
      BigDecimal decimal = value.decimalValue();
      try {
        return Optional.of(Json.NODES.numberNode(decimal.longValueExact()));
      } catch (ArithmeticException e) {
        return Optional.empty();
      }
    }
    if (value.isString() && value.asString().strip().matches("[+-]?[0-9]{1,18}")) {
      return Optional.of(Json.NODES.numberNode(Long.parseLong(value.asString().strip())));
    }
    return Optional.empty();
  }

  private static String expected(InputType type) {
    return switch (type) {
      case STRING -> "a string";
      case INT -> "an integer";
      case FLOAT -> "a number";
      case BOOLEAN -> "true or false";
      case DATETIME -> "an RFC 3339 date-time or a YYYY-MM-DD date";
    };
  }

  private static JsonNode node(Object value) {
    return switch (value) {
      case Long l -> Json.NODES.numberNode(l);
      case Double d -> Json.NODES.numberNode(d);
      case Boolean b -> Json.NODES.booleanNode(b);
      default -> Json.NODES.stringNode(String.valueOf(value));
    };
  }
}
