package dev.svc.model;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An RFC 6570 URI template, parsed for validation and compiled to a matcher that extracts variable
 * values from concrete URIs (the reverse of expansion, which is what resource reads need).
 */
public final class UriTemplate {
  private static final Pattern VARSPEC =
      Pattern.compile(
          "([A-Za-z0-9_]|%[0-9A-Fa-f]{2})([A-Za-z0-9_.]|%[0-9A-Fa-f]{2})*(\\*|:[1-9][0-9]{0,3})?");
  private static final String OPERATORS = "+#./;?&";

  private final String text;
  private final List<String> variables;
  private final Pattern pattern;
  private final List<Group> groups;
  private final int literalLength;

  private record Group(char operator, List<String> names) {}

  private UriTemplate(
      String text, List<String> variables, Pattern pattern, List<Group> groups, int literalLength) {
    this.text = text;
    this.variables = List.copyOf(variables);
    this.pattern = pattern;
    this.groups = List.copyOf(groups);
    this.literalLength = literalLength;
  }

  /**
   * Parses a template.
   *
   * @throws IllegalArgumentException with a message for users when the syntax is wrong
   */
  public static UriTemplate parse(String text) {
    List<String> variables = new ArrayList<>();
    List<Group> groups = new ArrayList<>();
    StringBuilder regex = new StringBuilder("^");
    int literalLength = 0;
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (c == '}') {
        throw new IllegalArgumentException("`}` at position " + (i + 1) + " closes no expression");
      }
      if (c != '{') {
        regex.append(Pattern.quote(String.valueOf(c)));
        literalLength++;
        i++;
        continue;
      }
      int close = text.indexOf('}', i);
      if (close < 0) {
        throw new IllegalArgumentException("`{` at position " + (i + 1) + " is never closed");
      }
      String expression = text.substring(i + 1, close);
      if (expression.isEmpty()) {
        throw new IllegalArgumentException("empty expression `{}` at position " + (i + 1));
      }
      char operator = OPERATORS.indexOf(expression.charAt(0)) >= 0 ? expression.charAt(0) : 0;
      String list = operator == 0 ? expression : expression.substring(1);
      List<String> names = new ArrayList<>();
      for (String spec : list.split(",", -1)) {
        if (!VARSPEC.matcher(spec).matches()) {
          throw new IllegalArgumentException(
              "`" + spec + "` in `{" + expression + "}` is not a variable name");
        }
        String name = spec.replaceAll("(\\*|:[0-9]+)$", "");
        names.add(name);
        variables.add(name);
      }
      groups.add(new Group(operator, names));
      regex.append(groupRegex(operator, names));
      i = close + 1;
    }
    regex.append("$");
    return new UriTemplate(
        text, variables, Pattern.compile(regex.toString()), groups, literalLength);
  }

  private static String groupRegex(char operator, List<String> names) {
    String value =
        switch (operator) {
          case '+', '#' -> "(.*?)";
          case '.' -> "([^/?#.]*)";
          default -> "([^/?#,&;]*)";
        };
    return switch (operator) {
      case '?', '&' -> "(?:" + Pattern.quote(String.valueOf(operator)) + "([^#]*))?";
      case ';' -> "((?:;[^/?#]*)*)";
      case '/' -> repeat("/" + value, names.size(), "");
      case '.' -> repeat("\\." + value, names.size(), "");
      case '#' -> "(?:#" + repeat(value, names.size(), ",") + ")?";
      default -> repeat(value, names.size(), ",");
    };
  }

  private static String repeat(String part, int count, String separator) {
    return String.join(separator, Collections.nCopies(count, part));
  }

  public String text() {
    return text;
  }

  /** Variable names in the order written. */
  public List<String> variables() {
    return variables;
  }

  /** Count of literal characters: more specific templates have more, and are tried first. */
  public int literalLength() {
    return literalLength;
  }

  /**
   * The variable values when {@code uri} is an expansion of this template.
   *
   * @throws IllegalArgumentException when a matched value holds a malformed percent-escape ({@code
   *     %zz}, a lone {@code %}) or, once decoded, a control character such as NUL
   */
  public Optional<Map<String, String>> match(String uri) {
    Matcher m = pattern.matcher(uri);
    if (!m.matches()) {
      return Optional.empty();
    }
    Map<String, String> values = new LinkedHashMap<>();
    int group = 1;
    for (Group g : groups) {
      switch (g.operator()) {
        case '?', '&', ';' -> {
          String pairs = m.group(group++);
          if (pairs != null) {
            for (String pair : pairs.split("[&;]")) {
              int eq = pair.indexOf('=');
              String key = eq < 0 ? pair : pair.substring(0, eq);
              if (g.names().contains(key)) {
                values.put(key, decode(eq < 0 ? "" : pair.substring(eq + 1)));
              }
            }
          }
        }
        default -> {
          for (String name : g.names()) {
            String value = m.group(group++);
            if (value != null) {
              values.put(name, decode(value));
            }
          }
        }
      }
    }
    return Optional.of(values);
  }

  private static String decode(String text) {
    String decoded;
    try {
      decoded = URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("the URI holds a malformed percent-escape", e);
    }
    if (decoded.chars().anyMatch(Character::isISOControl)) {
      throw new IllegalArgumentException("the URI holds an escaped control character");
    }
    return decoded;
  }

  @Override
  public String toString() {
    return text;
  }
}
