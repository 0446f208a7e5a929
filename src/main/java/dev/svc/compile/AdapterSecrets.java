package dev.svc.compile;

import dev.svc.definition.Located;
import dev.svc.definition.NamedValue;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.model.EnvString;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The {@code literal-secret} warning for adapters: a password or token written in the file (in the
 * connection string's user info, as a {@code password} or token parameter, or as such an option)
 * goes into the repository and into {@code model.bin}, as a literal {@code api_key} does. Only the
 * value is looked at, never repeated.
 */
final class AdapterSecrets {
  /** Parameter and option names whose value is a credential (lower case). */
  private static final Set<String> SECRET_NAMES =
      Set.of("password", "authtoken", "auth_token", "jwt", "proxypassword");

  private AdapterSecrets() {}

  static void check(
      Diagnostics diagnostics,
      String adapter,
      Located<String> connection,
      List<NamedValue> options) {
    String text = connection.value().strip();
    if (isLiteral(password(text)) || queryHoldsSecret(text)) {
      diagnostics.warning(
          "literal-secret",
          connection.origin(),
          "the connection string of adapter `"
              + adapter
              + "` holds a password or token written in the file: it would be in the repository"
              + " and in the built artifact",
          "write that part as {{ env.DB_PASSWORD }} (e.g."
              + " postgresql://app:{{ env.DB_PASSWORD }}@db:5432/shop), or the whole string as {{"
              + " env.DB_URL }}, and set the variable where svc runs (or in .env, kept out of"
              + " version control)");
    }
    for (NamedValue option : options) {
      if (SECRET_NAMES.contains(option.key().value().toLowerCase(Locale.ROOT))
          && isLiteral(option.value().value())) {
        diagnostics.warning(
            "literal-secret",
            option.value().origin(),
            "option `"
                + option.key().value()
                + "` of adapter `"
                + adapter
                + "` is written in the file: it would be in the repository and in the built"
                + " artifact",
            "write `"
                + option.key().value()
                + ": \"{{ env.DB_TOKEN }}\"` and set the variable where svc runs (or in .env, kept"
                + " out of version control)");
      }
    }
  }

  /**
   * The password of {@code user:password@host} (URL form after {@code ://}, or MySQL's DSN form),
   * empty when there is none.
   */
  private static String password(String text) {
    int scheme = text.indexOf("://");
    if (scheme < 0 && !text.contains("@tcp(") && !text.contains("@unix(")) {
      return ""; // a local SQLite path, whose name may hold an @ and a colon
    }
    String rest = scheme < 0 ? text : text.substring(scheme + 3);
    int query = rest.indexOf('?');
    int at = rest.lastIndexOf('@', query < 0 ? rest.length() : query);
    if (at < 0) {
      return "";
    }
    String userinfo = rest.substring(0, at);
    int colon = userinfo.indexOf(':');
    return colon < 0 ? "" : userinfo.substring(colon + 1);
  }

  private static boolean queryHoldsSecret(String text) {
    int query = text.indexOf('?');
    if (query < 0) {
      return false;
    }
    for (String parameter : text.substring(query + 1).split("&")) {
      int equals = parameter.indexOf('=');
      if (equals > 0
          && SECRET_NAMES.contains(parameter.substring(0, equals).toLowerCase(Locale.ROOT))
          && isLiteral(parameter.substring(equals + 1))) {
        return true;
      }
    }
    return false;
  }

  /** Not blank and not (partly) taken from the environment. */
  private static boolean isLiteral(String value) {
    return !value.isBlank() && !value.contains("{{") && !EnvString.ATTEMPT.matcher(value).find();
  }
}
