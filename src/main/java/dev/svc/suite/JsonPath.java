package dev.svc.suite;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * A JSON path selecting one value: {@code $} then any number of {@code .name}, {@code ['name']} and
 * {@code [index]} steps (e.g. {@code $[0].name}, {@code $.items[2]['unit price']}). Wildcards,
 * filters and slices are not supported: a test names the one value it expects.
 *
 * @param text the path as written
 */
public record JsonPath(String text, List<Step> steps) {
  public JsonPath {
    steps = List.copyOf(steps);
  }

  /** One step: a member of an object or an item of a list. */
  public sealed interface Step {
    record Member(String name) implements Step {}

    record Index(int index) implements Step {}
  }

  /**
   * Parses a path.
   *
   * @throws IllegalArgumentException saying what is wrong and where, when it is not a path
   */
  public static JsonPath parse(String text) {
    if (!text.startsWith("$")) {
      throw new IllegalArgumentException("a JSON path starts with `$`");
    }
    List<Step> steps = new ArrayList<>();
    int i = 1;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (c == '.') {
        int end = i + 1;
        while (end < text.length() && isNameChar(text.charAt(end))) {
          end++;
        }
        if (end == i + 1) {
          throw new IllegalArgumentException(
              "expected a member name after `.` at character " + (i + 2));
        }
        steps.add(new Step.Member(text.substring(i + 1, end)));
        i = end;
      } else if (c == '[') {
        int close = closingBracket(text, i);
        if (close < 0) {
          throw new IllegalArgumentException("`[` at character " + (i + 1) + " is not closed");
        }
        String inside = text.substring(i + 1, close).strip();
        if (inside.length() >= 2
            && (inside.startsWith("'") && inside.endsWith("'")
                || inside.startsWith("\"") && inside.endsWith("\""))) {
          steps.add(new Step.Member(inside.substring(1, inside.length() - 1)));
        } else if (inside.matches("[0-9]{1,9}")) {
          steps.add(new Step.Index(Integer.parseInt(inside)));
        } else {
          throw new IllegalArgumentException(
              "`["
                  + inside
                  + "]` at character "
                  + (i + 1)
                  + " is neither an index nor a quoted name (wildcards and filters are not"
                  + " supported)");
        }
        i = close + 1;
      } else {
        throw new IllegalArgumentException(
            "unexpected `" + c + "` at character " + (i + 1) + "; use `.name` or `[index]`");
      }
    }
    return new JsonPath(text, steps);
  }

  /**
   * The {@code ]} that closes the {@code [} at {@code open}: after a quoted name, the first one
   * past its closing quote, so that a name may hold {@code ]} ({@code $['a]b']}); else the first
   * one.
   */
  private static int closingBracket(String text, int open) {
    int at = open + 1;
    while (at < text.length() && text.charAt(at) == ' ') {
      at++;
    }
    if (at < text.length() && (text.charAt(at) == '\'' || text.charAt(at) == '"')) {
      int quote = text.indexOf(text.charAt(at), at + 1);
      if (quote > 0) {
        return text.indexOf(']', quote);
      }
    }
    return text.indexOf(']', open);
  }

  private static boolean isNameChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '-';
  }

  /** The value the path selects in {@code root}, or empty when there is none. */
  public Optional<JsonNode> select(JsonNode root) {
    JsonNode at = root;
    for (Step step : steps) {
      JsonNode next =
          switch (step) {
            case Step.Member(String name) -> at.isObject() ? at.get(name) : null;
            case Step.Index(int index) -> at.isArray() ? at.get(index) : null;
          };
      if (next == null) {
        return Optional.empty();
      }
      at = next;
    }
    return Optional.of(at);
  }

  @Override
  public String toString() {
    return text;
  }
}
