package dev.svc.model;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/** Model providers of agents. */
public enum Provider {
  GEMINI("gemini", "google_ai_studio"),
  VERTEX("vertex", "vertex_ai"),
  OPENAI_COMPATIBLE("openai_compatible", "openai");

  private final String canonical;
  private final String alias;

  Provider(String canonical, String alias) {
    this.canonical = canonical;
    this.alias = alias;
  }

  public String wireName() {
    return canonical;
  }

  /** Every accepted spelling, after normalisation. */
  public static List<String> names() {
    return Arrays.stream(values()).flatMap(p -> Stream.of(p.canonical, p.alias)).toList();
  }

  /** Lower-cases and turns {@code -} into {@code _}, as the spec normalises provider names. */
  public static String normalise(String text) {
    return text.strip().toLowerCase(Locale.ROOT).replace('-', '_');
  }

  public static Optional<Provider> parse(String text) {
    String normal = normalise(text);
    for (Provider p : values()) {
      if (p.canonical.equals(normal) || p.alias.equals(normal)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }
}
