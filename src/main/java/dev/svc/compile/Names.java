package dev.svc.compile;

import dev.svc.definition.Located;
import dev.svc.definition.Shapes;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.diagnostic.Origin;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/** Name defaults, patterns and uniqueness, shared by every kind of definition. */
final class Names {
  private final Diagnostics diagnostics;

  Names(Diagnostics diagnostics) {
    this.diagnostics = diagnostics;
  }

  /**
   * The name written in the file, else {@code fallback}; a fallback that breaks {@code pattern} is
   * reported at {@code origin} (a written name was already checked against its shape).
   */
  String nameOf(
      Optional<Located<String>> written,
      String fallback,
      String pattern,
      String kind,
      Origin origin) {
    if (written.isPresent()) {
      return written.get().value();
    }
    if (pattern != null && !Pattern.matches(pattern, fallback)) {
      diagnostics.error(
          "invalid-name",
          origin,
          "the "
              + kind
              + " has no `name`, and its default name `"
              + fallback
              + "` does not match "
              + pattern,
          "add a `name:` field, or rename it (" + Shapes.patternHint(pattern) + ")");
    }
    return fallback;
  }

  /** Tracks the first place each name of a kind was defined and reports later duplicates. */
  final class Registry {
    private final String code;
    private final String kind;
    private final Map<String, Origin> first = new LinkedHashMap<>();

    Registry(String code, String kind) {
      this.code = code;
      this.kind = kind;
    }

    /** Whether {@code name} is new; a duplicate is reported at {@code origin}. */
    boolean claim(String name, Origin origin) {
      Origin earlier = first.putIfAbsent(name, origin);
      if (earlier == null) {
        return true;
      }
      diagnostics.error(
          code,
          origin,
          kind + " `" + name + "` is defined twice",
          "the first definition is at " + earlier + "; rename or remove one");
      return false;
    }

    boolean contains(String name) {
      return first.containsKey(name);
    }

    Set<String> names() {
      return first.keySet();
    }
  }

  Registry registry(String code, String kind) {
    return new Registry(code, kind);
  }
}
