package dev.svc.compile;

import dev.svc.definition.Located;
import dev.svc.definition.Shapes;
import dev.svc.definition.ToolDefinition.InputDefinition;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.model.Input;
import dev.svc.model.InputType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Compiles a tool's {@code inputs:}: names usable in placeholders, types, required or optional,
 * defaults of the input's type, and the MCP 2026-07-28 {@code header} of each.
 */
final class InputCompiler {
  /** An RFC 9110 token: the characters an HTTP header name may have. */
  private static final Pattern HEADER_TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

  private final Diagnostics diagnostics;

  InputCompiler(Diagnostics diagnostics) {
    this.diagnostics = diagnostics;
  }

  /** The tool's inputs as written; each mistake is reported, and the input kept as best read. */
  List<Input> compile(List<InputDefinition> definitions) {
    List<Input> inputs = new ArrayList<>();
    Map<String, String> headers = new HashMap<>(); // lower-case header -> input
    for (InputDefinition d : definitions) {
      String name = d.name().value();
      if (!Pattern.matches(Shapes.PARAMETER_NAME, name)) {
        diagnostics.error(
            "invalid-name",
            d.name().origin(),
            "input name `" + name + "` cannot be used in a placeholder",
            "start with a letter or `_`; use letters, digits and `_`");
      }
      InputType type = d.type().flatMap(t -> InputType.parse(t.value())).orElse(InputType.STRING);
      boolean optional =
          d.optional().map(Located::value).orElse(false)
              || d.required().map(r -> !r.value()).orElse(false);
      if (d.optional().map(Located::value).orElse(false)
          && d.required().map(Located::value).orElse(false)) {
        diagnostics.error(
            "conflicting-required",
            d.required().get().origin(),
            "input `" + name + "` is marked both `optional: true` and `required: true`",
            "keep one of them");
      }
      Optional<Object> defaultValue = Optional.empty();
      if (d.defaultValue().isPresent()) {
        Located<String> written = d.defaultValue().get();
        defaultValue = type.convert(written.value());
        if (defaultValue.isEmpty()) {
          diagnostics.error(
              "invalid-default",
              written.origin(),
              "the default `"
                  + written.value()
                  + "` of input `"
                  + name
                  + "` is not a valid "
                  + type.wireName(),
              defaultHint(type));
        }
      }
      boolean required = !optional && d.defaultValue().isEmpty();
      d.header().ifPresent(h -> checkHeader(h, name, type, headers));
      inputs.add(
          new Input(
              name,
              type,
              d.description().map(Located::value),
              required,
              defaultValue,
              d.redact().map(Located::value).orElse(true),
              d.header().map(Located::value)));
    }
    return inputs;
  }

  /**
   * The rules MCP 2026-07-28 sets for an {@code x-mcp-header} (clients drop a tool that breaks
   * them): a non-empty RFC 9110 token, unique in the tool ignoring case, on a string, integer or
   * boolean value (not a number: its text form is not unique).
   */
  private void checkHeader(
      Located<String> header, String input, InputType type, Map<String, String> headers) {
    String value = header.value();
    if (!HEADER_TOKEN.matcher(value).matches()) {
      diagnostics.error(
          "invalid-input-header",
          header.origin(),
          value.isEmpty()
              ? "the `header` of input `" + input + "` is empty"
              : "the `header` `" + value + "` of input `" + input + "` is not an HTTP header name",
          "use letters, digits and `-` (an RFC 9110 token), e.g. `header: Region`; clients send"
              + " it as `Mcp-Param-<header>`");
    } else if (type == InputType.FLOAT) {
      diagnostics.error(
          "invalid-input-header",
          header.origin(),
          "input `" + input + "` is a `float`, which MCP does not allow in a header",
          "use `int`, `string`, `boolean` or `datetime`, or remove `header`");
    } else {
      String other = headers.putIfAbsent(value.toLowerCase(Locale.ROOT), input);
      if (other != null) {
        diagnostics.error(
            "duplicate-input-header",
            header.origin(),
            "inputs `" + other + "` and `" + input + "` both use the header `" + value + "`",
            "header names ignore case; give each input its own");
      }
    }
  }

  private static String defaultHint(InputType type) {
    return switch (type) {
      case INT -> "write a whole number such as \"10\"";
      case FLOAT -> "write a number such as \"1.5\"";
      case BOOLEAN -> "write \"true\" or \"false\"";
      case DATETIME ->
          "write an RFC 3339 date-time such as \"2026-01-31T12:00:00Z\" or a date \"2026-01-31\"";
      case STRING -> "write text";
    };
  }
}
