package dev.svc.auth;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * An RFC 7519 NumericDate ({@code exp}, {@code nbf}: seconds since the epoch, maybe fractional) as
 * an instant. Only years 1 to 9999 count as times: a token's {@code "exp": 1e20} is no time any
 * clock holds, and reading it as one would wrap around (Nimbus multiplies the seconds by 1000 in a
 * {@code long}) or overflow {@link Instant}; such a token is refused as saying no time.
 */
final class NumericDate {
  private static final BigDecimal FIRST =
      BigDecimal.valueOf(Instant.parse("0001-01-01T00:00:00Z").getEpochSecond());
  private static final BigDecimal LAST =
      BigDecimal.valueOf(Instant.parse("9999-12-31T23:59:59Z").getEpochSecond());

  private NumericDate() {}

  /** The instant a number of seconds stands for, or empty when no clock holds it. */
  static Optional<Instant> of(Number seconds) {
    BigDecimal exact;
    switch (seconds) {
      case Long n -> exact = BigDecimal.valueOf(n);
      case Integer n -> exact = BigDecimal.valueOf(n);
      case BigInteger n -> exact = new BigDecimal(n);
      case BigDecimal n -> exact = n;
      default -> {
        double value = seconds.doubleValue();
        if (!Double.isFinite(value)) {
          return Optional.empty();
        }
        exact = BigDecimal.valueOf(value);
      }
    }
    if (exact.compareTo(FIRST) < 0 || exact.compareTo(LAST) > 0) {
      return Optional.empty();
    }
    return Optional.of(Instant.ofEpochSecond(exact.longValue()));
  }

  /** As {@link #of(Number)} for a JSON value; empty for one that is not a number. */
  static Optional<Instant> of(JsonNode value) {
    return value.isNumber() ? of(value.numberValue()) : Optional.empty();
  }
}
