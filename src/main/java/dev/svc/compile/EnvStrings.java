package dev.svc.compile;

import dev.svc.definition.Located;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.model.EnvString;
import java.util.Optional;

/**
 * Checks {@code {{ env.NAME }}} placeholders: well-formed where they are substituted, and flagged
 * where they are not (they would reach clients as written).
 */
final class EnvStrings {
  private final Diagnostics diagnostics;

  EnvStrings(Diagnostics diagnostics) {
    this.diagnostics = diagnostics;
  }

  /** A value in which placeholders are substituted at start. */
  EnvString substituted(Located<String> value) {
    for (String bad : EnvString.malformed(value.value())) {
      diagnostics.error(
          "invalid-placeholder",
          value.origin(),
          "`" + bad + "` is not a valid environment placeholder",
          "write `{{ env.NAME }}` where NAME has letters, digits and `_`");
    }
    return new EnvString(value.value(), value.origin());
  }

  /** A value in which placeholders are not substituted; warns when it seems to expect it. */
  void notSubstituted(Optional<Located<String>> value, String field) {
    value
        .filter(v -> EnvString.ATTEMPT.matcher(v.value()).find())
        .ifPresent(v ->
            diagnostics.warning(
                "env-not-substituted",
                v.origin(),
                "`{{ env.… }}` is not substituted in `" + field + "`; it is served as written",
                "env placeholders work in connection_string, adapter options, auth policy values and model options"));
  }
}
