package dev.svc.model;

import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;

/** Types of tool inputs, and how text written by users converts to them. */
public enum InputType {
  STRING("string"),
  INT("integer"),
  FLOAT("number"),
  BOOLEAN("boolean"),
  DATETIME("string");

  private final String jsonType;

  InputType(String jsonType) {
    this.jsonType = jsonType;
  }

  /** The name written in tool files. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The JSON Schema type of an input of this type. */
  public String jsonType() {
    return jsonType;
  }

  public static Optional<InputType> parse(String text) {
    for (InputType type : values()) {
      if (type.wireName().equals(text)) {
        return Optional.of(type);
      }
    }
    return Optional.empty();
  }

  /**
   * Converts text (a {@code default} or a string argument) to this type: {@code Long}, {@code
   * Double}, {@code Boolean}, or {@code String} for strings and date-times (kept as written, after
   * checking they parse as RFC 3339 date-times or {@code YYYY-MM-DD} dates).
   */
  public Optional<Object> convert(String text) {
    String t = text.strip();
    try {
      return switch (this) {
        case STRING -> Optional.of(text);
        case INT -> Optional.of(Long.parseLong(t));
        case FLOAT -> {
          double value = Double.parseDouble(t);
          yield Double.isFinite(value) ? Optional.of(value) : Optional.empty();
        }
        case BOOLEAN ->
            switch (t) {
              case "true" -> Optional.of(Boolean.TRUE);
              case "false" -> Optional.of(Boolean.FALSE);
              default -> Optional.empty();
            };
        case DATETIME -> isDateTime(t) ? Optional.of(t) : Optional.empty();
      };
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /** Whether {@code text} is an RFC 3339 date-time or a {@code YYYY-MM-DD} date. */
  public static boolean isDateTime(String text) {
    try {
      OffsetDateTime.parse(text);
      return true;
    } catch (DateTimeParseException e) {
      try {
        LocalDate.parse(text);
        return true;
      } catch (DateTimeParseException e2) {
        return false;
      }
    }
  }
}
