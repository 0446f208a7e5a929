package dev.svc.compile;

import dev.svc.definition.Located;
import dev.svc.definition.ToolDefinition;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.diagnostic.Suggestions;
import dev.svc.model.Confirmation;
import dev.svc.model.Input;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A tool's {@code confirm} and {@code confirm_fallback}: the message's placeholders name declared
 * inputs ({@code {{ inputs.x }}}, as in statements), the fallback is {@code allow} or {@code
 * refuse} (the shape check reports other values), and a fallback without a question is flagged.
 */
final class ConfirmCompiler {
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{(.*?)}}");
  private static final Pattern INPUT = Pattern.compile("\\s*inputs\\.([A-Za-z_][A-Za-z0-9_]*)\\s*");

  private ConfirmCompiler() {}

  static Optional<Confirmation> compile(
      ToolDefinition tool, List<Input> inputs, Diagnostics diagnostics) {
    boolean allow = tool.confirmFallback().map(Located::value).filter("allow"::equals).isPresent();
    if (tool.confirm().isEmpty()) {
      tool.confirmFallback()
          .ifPresent(fallback ->
              diagnostics.warning(
                  "confirm-fallback-without-confirm",
                  fallback.origin(),
                  "`confirm_fallback` has no effect: the tool has no `confirm` question",
                  "add `confirm: \"…?\"`, or remove `confirm_fallback`"));
      return Optional.empty();
    }
    Located<String> confirm = tool.confirm().get();
    String message = confirm.value();
    if (message.isBlank()) {
      diagnostics.error(
          "missing-field",
          confirm.origin(),
          "the tool's `confirm` is empty",
          "write the question to ask, e.g. `confirm: \"Delete order {{ inputs.id }}?\"`");
      return Optional.empty();
    }
    List<String> declared = inputs.stream().map(Input::name).toList();
    boolean valid = true;
    int open = message.indexOf("{{");
    Matcher m = PLACEHOLDER.matcher(message);
    int checkedTo = 0;
    while (m.find()) {
      checkedTo = m.end();
      Matcher input = INPUT.matcher(m.group(1));
      if (!input.matches()) {
        valid = false;
        diagnostics.error(
            "invalid-placeholder",
            confirm.origin(),
            "`" + m.group() + "` in `confirm` is not an input placeholder",
            "write `{{ inputs.<name> }}` with the name of a declared input");
      } else if (!declared.contains(input.group(1))) {
        valid = false;
        diagnostics.error(
            "unknown-input",
            confirm.origin(),
            "`confirm` uses `{{ inputs."
                + input.group(1)
                + " }}`, but the tool has no input `"
                + input.group(1)
                + "`",
            Suggestions.didYouMean(input.group(1), declared).orElse("declare it under `inputs:`"));
      }
    }
    if (open >= 0 && message.indexOf("{{", checkedTo) >= 0) {
      valid = false;
      diagnostics.error(
          "invalid-placeholder",
          confirm.origin(),
          "a placeholder in `confirm` opened with `{{` is never closed with `}}`");
    }
    return valid ? Optional.of(new Confirmation(message, allow)) : Optional.empty();
  }
}
