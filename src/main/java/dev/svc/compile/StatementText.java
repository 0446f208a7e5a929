package dev.svc.compile;

import dev.svc.diagnostic.Diagnostics;
import dev.svc.diagnostic.Origin;
import dev.svc.model.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A statement being compiled, and what its three languages (SQL, MongoDB JSON, Redis command line)
 * share: the {@code {{ inputs.x }}} and {@code {{ auth.claims.x }}} placeholders and reporting at
 * the statement's origin. Every problem of a statement is reported at its {@code statement} field.
 */
final class StatementText {
  private static final Pattern INPUT = Pattern.compile("\\s*inputs\\.([A-Za-z_][A-Za-z0-9_]*)\\s*");

  /**
   * {@code {{ auth.claims.x }}}: a claim of the call's verified access token, or with dots a member
   * of nested objects ({@code auth.claims.realm_access.roles}).
   */
  private static final Pattern CLAIM =
      Pattern.compile(
          "\\s*auth\\.claims\\.([A-Za-z_][A-Za-z0-9_]*(?:\\.[A-Za-z_][A-Za-z0-9_]*)*)\\s*");

  /** How the input names of claim placeholders begin: inputs cannot hold dots, so never clash. */
  static final String CLAIMS = "auth.claims.";

  /** {@code {{ input.x }}}, a common slip for {@code {{ inputs.x }}}. */
  private static final Pattern SINGULAR =
      Pattern.compile("\\s*input\\.([A-Za-z_][A-Za-z0-9_]*)\\s*");

  private final String source;
  private final Origin origin;
  private final Diagnostics diagnostics;

  StatementText(String source, Origin origin, Diagnostics diagnostics) {
    this.source = source;
    this.origin = origin;
    this.diagnostics = diagnostics;
  }

  /** The statement as written. */
  String source() {
    return source;
  }

  /**
   * An input or claim placeholder in the source.
   *
   * @param input the input it names, or {@code auth.claims.<name>} for a claim
   * @param end the index just after its closing {@code }}}
   */
  record InputPlaceholder(String input, int end) {}

  /** Whether a placeholder opens at {@code index}. */
  boolean opensPlaceholder(int index) {
    return source.startsWith("{{", index);
  }

  /**
   * Reads the placeholder opening at {@code start}; empty, with the problem reported, when it is
   * not closed or names no input.
   */
  Optional<InputPlaceholder> placeholderAt(int start) {
    int end = source.indexOf("}}", start + 2);
    if (end < 0) {
      error("invalid-placeholder", "a placeholder opened with `{{` is never closed with `}}`");
      return Optional.empty();
    }
    String inner = source.substring(start + 2, end);
    Matcher claim = CLAIM.matcher(inner);
    if (claim.matches()) {
      return Optional.of(new InputPlaceholder(CLAIMS + claim.group(1), end + 2));
    }
    Matcher m = INPUT.matcher(inner);
    if (!m.matches()) {
      String written = "{{" + inner + "}}";
      if (inner.strip().startsWith("auth.") || inner.strip().equals("auth")) {
        error(
            "invalid-placeholder",
            "`" + written + "` is not a claim placeholder",
            "write `{{ auth.claims.<name> }}` with the claim's name (letters, digits, `_`; dots"
                + " reach into nested objects), e.g. `{{ auth.claims.sub }}` for the subject");
        return Optional.empty();
      }
      Matcher singular = SINGULAR.matcher(inner);
      String hint =
          inner.strip().startsWith("env.")
              ? "environment variables are not substituted in statements; keep secrets in the"
                  + " adapter's connection_string, or pass the value as an input"
              : singular.matches()
                  ? "did you mean `{{ inputs." + singular.group(1) + " }}`?"
                  : "write `{{ inputs.<name> }}` with the name of a declared input";
      error("invalid-placeholder", "`" + written + "` is not an input placeholder", hint);
      return Optional.empty();
    }
    return Optional.of(new InputPlaceholder(m.group(1), end + 2));
  }

  /**
   * Reads the placeholder opening at {@code start} into {@code segments}; returns the index after
   * it, or -1 when it was reported as invalid.
   */
  int readPlaceholder(int start, Segments segments, boolean insideString) {
    Optional<InputPlaceholder> placeholder = placeholderAt(start);
    if (placeholder.isEmpty()) {
      return -1;
    }
    segments.placeholder(placeholder.get(), insideString);
    return placeholder.get().end();
  }

  void error(String code, String message) {
    diagnostics.error(code, origin, message);
  }

  void error(String code, String message, String hint) {
    diagnostics.error(code, origin, message, hint);
  }

  /**
   * A template of literal text and placeholders (a MongoDB command, a Redis argument), built left
   * to right: literal characters accumulate until a placeholder or the end closes them.
   */
  static final class Segments {
    private final List<Statement.Segment> segments = new ArrayList<>();
    private final StringBuilder literal = new StringBuilder();

    Segments append(char c) {
      literal.append(c);
      return this;
    }

    void placeholder(InputPlaceholder placeholder, boolean insideString) {
      closeLiteral();
      segments.add(new Statement.Placeholder(placeholder.input(), insideString));
    }

    boolean isEmpty() {
      return segments.isEmpty() && literal.isEmpty();
    }

    /** The segments so far, the pending literal text included. */
    List<Statement.Segment> build() {
      closeLiteral();
      return List.copyOf(segments);
    }

    private void closeLiteral() {
      if (!literal.isEmpty()) {
        segments.add(new Statement.Literal(literal.toString()));
        literal.setLength(0);
      }
    }
  }
}
