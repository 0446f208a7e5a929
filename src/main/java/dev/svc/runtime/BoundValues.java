package dev.svc.runtime;

import dev.svc.call.VerifiedToken;
import dev.svc.json.Json;
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
 *
 * <p>A name {@code auth.claims.<path>} is a claim of the call's verified access token, and only
 * that: never an input, even one an input transform added under that name. Strings, numbers and
 * booleans bind as such; lists and objects as their JSON text. A claim the token lacks (or holds as
 * {@code null}) fails the call rather than bind NULL: a filter like {@code owner = NULL} would
 * quietly match nothing, or with other SQL, everything.
 */
final class BoundValues {
  /** How the names of claim placeholders begin (input names cannot hold dots). */
  static final String CLAIMS = "auth.claims.";

  private BoundValues() {}

  /**
   * The values for {@code names}, or the first name that has no value: an input neither in the
   * final inputs nor declared (declared optional inputs without a value bind as NULL), or a claim
   * the token lacks.
   *
   * @param token the call's verified access token, if it has one
   */
  static Result of(Tool tool, JsonNode inputs, List<String> names, Optional<VerifiedToken> token) {
    Map<String, Object> values = new HashMap<>();
    for (String name : names) {
      if (name.startsWith(CLAIMS)) {
        String claim = name.substring(CLAIMS.length());
        if (token.isEmpty()) {
          return new NoToken(claim);
        }
        Optional<Object> value = token.get().claim(claim);
        if (value.isEmpty()) {
          return new MissingClaim(claim);
        }
        values.put(name, claimValue(value.get()));
        continue;
      }
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

  /** The token carries no claim {@code claim} (or it is {@code null}). */
  record MissingClaim(String claim) implements Result {}

  /** The statement binds claim {@code claim}, and the call has no verified token. */
  record NoToken(String claim) implements Result {}

  /** A claim as bound: its JSON scalar as such, a list or object as its JSON text. */
  private static Object claimValue(Object claim) {
    return switch (claim) {
      case String text -> text;
      case Boolean flag -> flag;
      case Integer number -> number.longValue();
      case Long number -> number;
      case Short number -> number.longValue();
      case Number number -> number;
      default -> Json.MAPPER.writeValueAsString(claim);
    };
  }

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
