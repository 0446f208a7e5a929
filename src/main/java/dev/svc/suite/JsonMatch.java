package dev.svc.suite;

import java.math.BigDecimal;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Equality of JSON values as a test means it: numbers by value ({@code 24.5} written in YAML equals
 * the {@code 24.50} a database returns), objects regardless of key order, lists in order.
 */
public final class JsonMatch {
  private JsonMatch() {}

  public static boolean equal(JsonNode expected, JsonNode actual) {
    if (expected.isNumber() && actual.isNumber()) {
      return decimal(expected).compareTo(decimal(actual)) == 0;
    }
    if (expected.isArray() && actual.isArray()) {
      if (expected.size() != actual.size()) {
        return false;
      }
      for (int i = 0; i < expected.size(); i++) {
        if (!equal(expected.get(i), actual.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (expected.isObject() && actual.isObject()) {
      return expected.size() == actual.size() && contains(actual, expected);
    }
    return expected.equals(actual);
  }

  /** Whether {@code row} is an object holding every field of {@code fields} with an equal value. */
  public static boolean contains(JsonNode row, JsonNode fields) {
    if (!row.isObject() || !fields.isObject()) {
      return false;
    }
    for (Map.Entry<String, JsonNode> field : fields.properties()) {
      JsonNode value = row.get(field.getKey());
      if (value == null || !equal(field.getValue(), value)) {
        return false;
      }
    }
    return true;
  }

  private static BigDecimal decimal(JsonNode number) {
    try {
      return number.decimalValue();
    } catch (RuntimeException e) {
      return BigDecimal.valueOf(number.doubleValue()); // NaN cannot be here: JSON has none
    }
  }
}
