package dev.svc.log;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * Formats one log entry as text or as a JSON object. What a message or a value holds cannot end the
 * line or drive a terminal: control characters (C0, DEL and C1, among them NEL, which many line
 * readers take for a line end, and CSI, which terminals obey) and the Unicode line and paragraph
 * separators are written as escapes in both formats.
 */
final class LogLines {
  private LogLines() {}

  static String text(
      Instant time,
      Level level,
      String tag,
      String message,
      Map<String, Object> fields,
      Optional<String> requestId,
      Throwable error,
      boolean withStack) {
    StringBuilder out = new StringBuilder(96);
    out.append(time).append(' ');
    out.append(String.format("%-5s", level.name())).append(" [");
    escapeControls(out, tag).append("] ");
    escapeControls(out, message);
    requestId.ifPresent(id -> out.append(" request_id=").append(id));
    fields.forEach((k, v) -> out.append(' ').append(k).append('=').append(textValue(v)));
    if (error != null) {
      out.append(" error=").append(textValue(String.valueOf(error.getMessage())));
      if (withStack) {
        out.append('\n').append(stack(error).stripTrailing());
      }
    }
    return out.toString();
  }

  static String json(
      Instant time,
      Level level,
      String tag,
      String message,
      Map<String, Object> fields,
      Optional<String> requestId,
      Throwable error,
      boolean withStack) {
    StringBuilder out = new StringBuilder(128).append('{');
    field(out, "time", time.toString());
    out.append(',');
    field(out, "level", level.label());
    out.append(',');
    field(out, "tag", tag);
    out.append(',');
    field(out, "msg", message);
    requestId.ifPresent(id -> field(out.append(','), "request_id", id));
    for (Map.Entry<String, Object> entry : fields.entrySet()) {
      out.append(',');
      Object value = entry.getValue();
      if (value instanceof Number || value instanceof Boolean) {
        quote(out, entry.getKey()).append(':').append(value);
      } else {
        field(out, entry.getKey(), String.valueOf(value));
      }
    }
    if (error != null) {
      field(out.append(','), "error", String.valueOf(error.getMessage()));
      if (withStack) {
        field(out.append(','), "stack", stack(error));
      }
    }
    return out.append('}').toString();
  }

  private static void field(StringBuilder out, String key, String value) {
    quote(out, key).append(':');
    quote(out, value);
  }

  private static StringBuilder quote(StringBuilder out, String text) {
    out.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        default -> escapeControl(out, c);
      }
    }
    return out.append('"');
  }

  /**
   * Appends {@code text} as it is but for its control characters, escaped (a text line's message).
   */
  private static StringBuilder escapeControls(StringBuilder out, String text) {
    for (int i = 0; i < text.length(); i++) {
      escapeControl(out, text.charAt(i));
    }
    return out;
  }

  private static void escapeControl(StringBuilder out, char c) {
    switch (c) {
      case '\n' -> out.append("\\n");
      case '\r' -> out.append("\\r");
      case '\t' -> out.append("\\t");
      default -> {
        if (isControl(c)) {
          out.append(String.format("\\u%04x", (int) c));
        } else {
          out.append(c);
        }
      }
    }
  }

  /** C0 and C1 controls, DEL, and the line and paragraph separators U+2028 and U+2029. */
  private static boolean isControl(int c) {
    return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x2028 || c == 0x2029;
  }

  private static String textValue(Object value) {
    String text = String.valueOf(value);
    return text.isEmpty()
            || text.chars().anyMatch(c -> c == ' ' || c == '"' || c == '=' || isControl(c))
        ? quote(new StringBuilder(), text).toString()
        : text;
  }

  private static String stack(Throwable error) {
    StringWriter out = new StringWriter();
    error.printStackTrace(new PrintWriter(out));
    return out.toString();
  }
}
