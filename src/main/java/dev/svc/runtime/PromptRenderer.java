package dev.svc.runtime;

import dev.svc.model.Argument;
import dev.svc.model.Prompt;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Renders a prompt's messages: {@code {{ name }}} placeholders (letters, digits, underscore) are
 * replaced by supplied arguments; a placeholder without a value is left as written.
 */
public final class PromptRenderer {
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\s*([A-Za-z0-9_]+)\\s*\\}\\}");

  private PromptRenderer() {}

  /** A rendered message. */
  public record Rendered(Prompt.Role role, String text) {}

  /** Required arguments the caller did not supply, in declaration order. */
  public static List<String> missingRequired(Prompt prompt, Map<String, String> arguments) {
    return prompt.arguments().stream()
        .filter(Argument::required)
        .map(Argument::name)
        .filter(name -> !arguments.containsKey(name))
        .toList();
  }

  public static List<Rendered> render(Prompt prompt, Map<String, String> arguments) {
    List<Rendered> messages = new ArrayList<>();
    for (Prompt.Message message : prompt.messages()) {
      messages.add(new Rendered(message.role(), substitute(message.text(), arguments)));
    }
    return messages;
  }

  /** Replaces each {@code {{ name }}} that has a value; others stay as written. */
  public static String substitute(String text, Map<String, String> values) {
    Matcher m = PLACEHOLDER.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String value = values.get(m.group(1));
      m.appendReplacement(out, Matcher.quoteReplacement(value != null ? value : m.group()));
    }
    m.appendTail(out);
    return out.toString();
  }
}
