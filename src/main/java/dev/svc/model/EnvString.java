package dev.svc.model;

import dev.svc.diagnostic.Origin;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Text that may hold {@code {{ env.NAME }}} placeholders. The model keeps the placeholders; values
 * are filled in only when serving, so built artifacts never contain them.
 *
 * @param template the text as written
 * @param origin where it was written, for "missing variable" errors at start
 */
public record EnvString(String template, Origin origin) {

  /** A well-formed placeholder; group 1 is the variable name. */
  public static final Pattern PLACEHOLDER =
      Pattern.compile("\\{\\{\\s*env\\.([A-Za-z_][A-Za-z0-9_]*)\\s*\\}\\}");

  /** Anything that looks like an attempt at an env placeholder. */
  public static final Pattern ATTEMPT = Pattern.compile("\\{\\{\\s*env\\b[^}]*\\}?\\}?");

  public static EnvString plain(String text) {
    return new EnvString(text, Origin.ofFile("<internal>"));
  }

  /** Names of the variables the text refers to, in order of first use. */
  public Set<String> variables() {
    Set<String> names = new LinkedHashSet<>();
    Matcher m = PLACEHOLDER.matcher(template);
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
  }

  public boolean hasPlaceholders() {
    return PLACEHOLDER.matcher(template).find();
  }

  /**
   * The text with every placeholder replaced.
   *
   * @throws MissingVariableException naming the first variable {@code lookup} does not know
   */
  public String resolve(Function<String, Optional<String>> lookup) {
    Matcher m = PLACEHOLDER.matcher(template);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String name = m.group(1);
      String value =
          lookup.apply(name).orElseThrow(() -> new MissingVariableException(name, origin));
      m.appendReplacement(out, Matcher.quoteReplacement(value));
    }
    m.appendTail(out);
    return out.toString();
  }

  /** Every malformed placeholder in {@code text}, e.g. {@code {{ env.my-var }}}. */
  public static List<String> malformed(String text) {
    List<String> bad = new ArrayList<>();
    Matcher m = ATTEMPT.matcher(text);
    while (m.find()) {
      if (!PLACEHOLDER.matcher(m.group()).matches()) {
        bad.add(m.group());
      }
    }
    return bad;
  }

  @Override
  public String toString() {
    return template;
  }
}
