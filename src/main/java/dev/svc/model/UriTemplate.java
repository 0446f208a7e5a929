package dev.svc.model;

import dev.svc.json.CountedText;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
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
  /**
   * The character reads a match may take beyond eight per character of the URI: a URI of an
   * expansion matches in about one per character; a near-miss against adjacent variables
   * backtracks.
   */
  static final long MATCH_STEPS = 2_000_000;

  private static final Pattern VARSPEC =
      Pattern.compile(
          "([A-Za-z0-9_]|%[0-9A-Fa-f]{2})([A-Za-z0-9_.]|%[0-9A-Fa-f]{2})*(\\*|:[1-9][0-9]{0,3})?");
  private static final String OPERATORS = "+#./;?&";

  private final String text;
  private final List<String> variables;
  private final Pattern pattern;
  private final List<Group> groups;
  private final int literalLength;

  /**
   * One expression: its operator (0 for none), its variables and their prefix lengths (0: the whole
   * value).
   */
  private record Group(char operator, List<String> names, List<Integer> prefixes) {}

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
      List<Integer> prefixes = new ArrayList<>();
      for (String spec : list.split(",", -1)) {
        if (!VARSPEC.matcher(spec).matches()) {
          throw new IllegalArgumentException(
              "`" + spec + "` in `{" + expression + "}` is not a variable name");
        }
        String name = spec.replaceAll("(\\*|:[0-9]+)$", "");
        int colon = spec.lastIndexOf(':');
        prefixes.add(colon < 0 ? 0 : Integer.parseInt(spec.substring(colon + 1)));
        names.add(name);
        variables.add(name);
      }
      groups.add(new Group(operator, names, prefixes));
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
    Matcher m = pattern.matcher(CountedText.of(uri, MATCH_STEPS + 8L * uri.length()));
    try {
      if (!m.matches()) {
        return Optional.empty();
      }
    } catch (CountedText.BudgetExceeded e) {
      // adjacent variables make a near-miss backtrack with the square of the URI's length: a 128
      // KB URI took 20 s of CPU against `{name}.{ext}`
      throw new IllegalArgumentException(
          "the URI takes too long to match the template " + text + " (is it that long?)");
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

  /**
   * The URI this template expands to with {@code values} (RFC 6570 section 3.2, for string values):
   * a variable without a value is left out, as the RFC says.
   */
  public String expand(Map<String, String> values) {
    StringBuilder out = new StringBuilder();
    int group = 0;
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (c != '{') {
        out.append(c);
        i++;
        continue;
      }
      Group g = groups.get(group++);
      boolean reserved = g.operator() == '+' || g.operator() == '#';
      boolean named = g.operator() == ';' || g.operator() == '?' || g.operator() == '&';
      String first =
          switch (g.operator()) {
            case 0, '+' -> "";
            default -> String.valueOf(g.operator());
          };
      String separator =
          switch (g.operator()) {
            case '.', '/', ';' -> String.valueOf(g.operator());
            case '?', '&' -> "&";
            default -> ",";
          };
      List<String> parts = new ArrayList<>();
      for (int n = 0; n < g.names().size(); n++) {
        String value = values.get(g.names().get(n));
        if (value == null) {
          continue;
        }
        int prefix = g.prefixes().get(n);
        if (prefix > 0 && value.codePointCount(0, value.length()) > prefix) {
          value = value.substring(0, value.offsetByCodePoints(0, prefix));
        }
        String encoded = encode(value, reserved);
        if (!named) {
          parts.add(encoded);
        } else if (value.isEmpty()) {
          parts.add(g.names().get(n) + (g.operator() == ';' ? "" : "="));
        } else {
          parts.add(g.names().get(n) + "=" + encoded);
        }
      }
      if (!parts.isEmpty()) {
        out.append(first).append(String.join(separator, parts));
      }
      i = text.indexOf('}', i) + 1;
    }
    return out.toString();
  }

  private static final String UNRESERVED = "-._~";
  private static final String RESERVED = ":/?#[]@!$&'()*+,;=";

  private static String encode(String value, boolean allowReserved) {
    StringBuilder out = new StringBuilder();
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < bytes.length; i++) {
      int b = bytes[i] & 0xff;
      char c = (char) b;
      boolean keep =
          b < 0x80
              && (Character.isLetterOrDigit(c)
                  || UNRESERVED.indexOf(c) >= 0
                  || allowReserved && RESERVED.indexOf(c) >= 0);
      boolean triplet =
          allowReserved
              && c == '%'
              && i + 2 < bytes.length
              && isHex(bytes[i + 1])
              && isHex(bytes[i + 2]);
      if (keep || triplet) {
        out.append(c);
      } else {
        out.append('%').append(HexFormat.of().withUpperCase().toHexDigits((byte) b));
      }
    }
    return out.toString();
  }

  private static boolean isHex(byte b) {
    return b >= '0' && b <= '9' || b >= 'a' && b <= 'f' || b >= 'A' && b <= 'F';
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
