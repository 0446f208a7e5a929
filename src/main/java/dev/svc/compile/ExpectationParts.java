package dev.svc.compile;

import dev.svc.definition.Located;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.project.YamlNode;
import dev.svc.suite.Expectation;
import dev.svc.suite.JsonPath;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The parts of a test case's {@code expect} that tool, prompt, resource and agent cases share:
 * {@code json_path} mappings and regular expressions, each mistake a diagnostic at its position.
 */
final class ExpectationParts {
  private final Diagnostics diagnostics;

  ExpectationParts(Diagnostics diagnostics) {
    this.diagnostics = diagnostics;
  }

  /**
   * Adds a {@link Expectation.PathValue} per entry of a {@code json_path} mapping.
   *
   * @param example a path the hint shows, fitting what the case answers (e.g. {@code $[0].name})
   */
  void jsonPaths(Optional<YamlNode> written, String example, List<Expectation> expectations) {
    YamlJson json = new YamlJson(diagnostics, "json_path", "invalid-expectation");
    written
        .filter(YamlNode.Mapping.class::isInstance)
        .ifPresent(node -> {
          for (YamlNode.Entry entry : ((YamlNode.Mapping) node).entries()) {
            try {
              expectations.add(
                  new Expectation.PathValue(
                      JsonPath.parse(entry.key().text()), json.json(entry.value())));
            } catch (IllegalArgumentException e) {
              diagnostics.error(
                  "invalid-json-path",
                  entry.key().origin(),
                  "`" + entry.key().text() + "` is not a JSON path: " + e.getMessage(),
                  "write `$`, then `.name`, `['name']` or `[index]` steps, e.g. `" + example + "`");
            }
          }
        });
  }

  /**
   * A regular expression written in a field, or {@code invalid-expectation} at its position.
   *
   * @param field how the message names it (e.g. {@code `error` of case `x`})
   */
  Optional<Pattern> pattern(Located<String> text, String field) {
    try {
      return Optional.of(Pattern.compile(text.value()));
    } catch (PatternSyntaxException e) {
      diagnostics.error(
          "invalid-expectation",
          text.origin(),
          field + " is not a regular expression: " + e.getDescription(),
          "quote regex characters with `\\`, e.g. `\\(`");
      return Optional.empty();
    }
  }
}
