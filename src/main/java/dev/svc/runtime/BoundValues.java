package dev.svc.runtime;

import dev.svc.model.Input;
import dev.svc.model.InputType;
import dev.svc.model.Tool;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Turns a call's final inputs into the Java values a connector binds: declared inputs by their type
 * (date-times as temporal values), anything an input transform added by its JSON type.
 */
final class BoundValues {
  private BoundValues() {}

  /**
   * The values for {@code names}, or the first name that has no value: an input neither in the
   * final inputs nor declared (declared optional inputs without a value bind as NULL).
   */
  static Result of(Tool tool, JsonNode inputs, List<String> names) {
    Map<String, Object> values = new HashMap<>();
    for (String name : names) {
      JsonNode value = inputs.get(name);
      Optional<Input> declared = tool.input(name);
      if (value == null) {
        if (declared.isEmpty()) {
          return new Missing(name);
        }
        values.put(name, null);
        continue;
      }
      values.put(name, declared.map(d -> typed(d.type(), value)).orElseGet(() -> inferred(value)));
    }
    return new Values(values);
  }

  sealed interface Result {}

  record Values(Map<String, Object> values) implements Result {}

  record Missing(String input) implements Result {}

  private static Object typed(InputType type, JsonNode value) {
    if (value.isNull()) {
      return null;
    }
    return switch (type) {
      case STRING -> value.isString() ? value.asString() : inferred(value);
      case INT -> value.canConvertToLong() && value.isNumber() ? value.asLong() : inferred(value);
      case FLOAT -> value.isNumber() ? value.asDouble() : inferred(value);
      case BOOLEAN -> value.isBoolean() ? value.asBoolean() : inferred(value);
      case DATETIME -> value.isString() ? temporal(value.asString()) : inferred(value);
    };
  }

  private static Object temporal(String text) {
    try {
      return OffsetDateTime.parse(text);
    } catch (DateTimeParseException e) {
      try {
        return LocalDate.parse(text);
      } catch (DateTimeParseException e2) {
        return text;
      }
    }
  }

  static Object inferred(JsonNode value) {
    if (value.isNull()) {
      return null;
    }
    if (value.isString()) {
      return value.asString();
    }
    if (value.isBoolean()) {
      return value.asBoolean();
    }
    if (value.isIntegralNumber()) {
      return value.canConvertToLong() ? (Object) value.asLong() : value.decimalValue();
    }
    if (value.isBigDecimal()) {
      return value.decimalValue();
    }
    if (value.isNumber()) {
      return value.asDouble();
    }
    return value;
  }
}
