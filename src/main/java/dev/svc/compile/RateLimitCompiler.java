package dev.svc.compile;

import dev.svc.definition.Located;
import dev.svc.definition.RateLimitDefinition;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.model.RateLimit;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Compiles {@code rate_limit} blocks: the global one ({@code tools.rate_limit}) and each tool's,
 * whose fields override what they set of the global one.
 */
final class RateLimitCompiler {
  static final String CODE = "invalid-rate-limit";

  /** The longest window: a day. Longer windows are better served by quotas outside svc. */
  static final Duration MAX_PER = Duration.ofDays(1);

  private static final Pattern DURATION = Pattern.compile("(\\d{1,9})\\s*(ms|s|m|h)?");
  private static final String DURATION_HINT =
      "write seconds (`60`) or a number with `ms`, `s`, `m` or `h` (`500ms`, `30s`, `1m`, `1h`),"
          + " at most 24h";

  private RateLimitCompiler() {}

  /**
   * The limit a block makes from {@code base} (the global limit, empty for none): empty when it
   * says {@code enabled: false}, or when nothing sets {@code requests} (an error unless the block
   * is absent).
   */
  static Optional<RateLimit> compile(
      Optional<RateLimit> base, Optional<RateLimitDefinition> written, Diagnostics diagnostics) {
    if (written.isEmpty()) {
      return base;
    }
    RateLimitDefinition block = written.get();
    Optional<Duration> per = block.per().flatMap(p -> per(p, diagnostics));
    if (block.enabled().map(Located::value).orElse(true) == Boolean.FALSE) {
      return Optional.empty();
    }
    Optional<Long> requests =
        block
            .requests()
            .map(Located::value)
            .or(() -> base.map(RateLimit::requests))
            .filter(n -> n >= 1); // fewer is reported by the shape check
    if (requests.isEmpty()) {
      if (block.requests().isEmpty()) {
        diagnostics.error(
            "missing-field",
            block.origin(),
            "`rate_limit` has no `requests`",
            "add `requests:` (the most calls one caller makes per window), or `enabled: false`");
      }
      return Optional.empty();
    }
    if (block.per().isPresent() && per.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new RateLimit(
            requests.get(), per.or(() -> base.map(RateLimit::per)).orElse(RateLimit.DEFAULT_PER)));
  }

  /** A window as written: seconds, or a number with a unit; reported when it is not one. */
  static Optional<Duration> per(Located<String> written, Diagnostics diagnostics) {
    Optional<Duration> per = parse(written.value());
    if (per.isEmpty()) {
      diagnostics.error(
          CODE,
          written.origin(),
          "`per` must be a duration of at least 1ms, found `" + written.value() + "`",
          DURATION_HINT);
    } else if (per.get().compareTo(MAX_PER) > 0) {
      diagnostics.error(
          CODE,
          written.origin(),
          "`per` is longer than a day: `" + written.value() + "`",
          DURATION_HINT);
      return Optional.empty();
    }
    return per;
  }

  /** {@code 60}, {@code 60s}, {@code 500ms}, {@code 1m}, {@code 1h}; empty for anything else. */
  static Optional<Duration> parse(String text) {
    Matcher m = DURATION.matcher(text.strip());
    if (!m.matches()) {
      return Optional.empty();
    }
    long n = Long.parseLong(m.group(1));
    String unit = m.group(2) == null ? "s" : m.group(2);
    Duration d =
        switch (unit) {
          case "ms" -> Duration.ofMillis(n);
          case "m" -> Duration.ofMinutes(n);
          case "h" -> Duration.ofHours(n);
          default -> Duration.ofSeconds(n);
        };
    return d.isZero() ? Optional.empty() : Optional.of(d);
  }
}
