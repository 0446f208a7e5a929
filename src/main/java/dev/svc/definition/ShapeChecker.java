package dev.svc.definition;

import dev.svc.diagnostic.Diagnostics;
import dev.svc.diagnostic.Origin;
import dev.svc.diagnostic.Suggestions;
import dev.svc.project.YamlNode;
import dev.svc.project.YamlNode.Mapping;
import dev.svc.project.YamlNode.Scalar;
import dev.svc.project.YamlNode.ScalarKind;
import dev.svc.project.YamlNode.Sequence;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Checks YAML nodes against a {@link Shape}: unknown keys (with a "did you mean"), value types,
 * required fields, choices and patterns. Reports every problem and never stops at the first.
 */
final class ShapeChecker {
  private final Diagnostics diagnostics;

  ShapeChecker(Diagnostics diagnostics) {
    this.diagnostics = diagnostics;
  }

  /** Checks a mapping against {@code shape}; {@code what} names it in messages ("tool"). */
  void checkMapping(YamlNode node, Shape shape, String what) {
    if (!(node instanceof Mapping mapping)) {
      if (!isNull(node)) {
        diagnostics.error(
            "invalid-type",
            node.origin(),
            ("aeiou".indexOf(what.charAt(0)) >= 0 ? "an " : "a ")
                + what
                + " must be a mapping, found "
                + node.describe());
      }
      if (isNull(node)) {
        reportMissing(new Mapping(List.of(), node.origin()), shape, what);
      }
      return;
    }
    YamlNode.Entry previous = null;
    for (YamlNode.Entry entry : mapping.entries()) {
      String key = entry.key().text();
      Optional<String> cutOff = cutOffValue(previous, entry);
      shape
          .field(key)
          .ifPresentOrElse(
              field -> checkValue(field, entry.key(), entry.value(), what),
              () -> reportUnknownKey(entry.key(), shape, what, cutOff));
      previous = entry;
    }
    reportMissing(mapping, shape, what);
  }

  private void reportMissing(Mapping mapping, Shape shape, String what) {
    for (Field field : shape.fields()) {
      if (field.required() && mapping.get(field.name()).filter(v -> !isNull(v)).isEmpty()) {
        Origin at = mapping.entry(field.name()).map(e -> e.key().origin()).orElse(mapping.origin());
        diagnostics.error(
            "missing-field",
            at,
            "`" + field.name() + "` is missing from the " + what,
            "add `" + field.name() + ":` (" + lowerFirst(field.description()) + ")");
      }
    }
  }

  /**
   * The hint for {@code {description: Key suffix, e.g. greeting}}, where the comma ended the value
   * and made a key of the rest: an entry without a value on the line of the text value before it
   * (which block mappings cannot produce).
   */
  private static Optional<String> cutOffValue(YamlNode.Entry previous, YamlNode.Entry entry) {
    String key = entry.key().text();
    if (previous == null
        || !isNull(entry.value())
        || !(previous.value() instanceof Scalar value)
        || value.kind() != ScalarKind.STRING
        || value.origin().line() != entry.key().origin().line()) {
      return Optional.empty();
    }
    String whole = value.text() + ", " + key;
    return Optional.of(
        "a comma inside `{…}` ends the value: quote it, `"
            + previous.key().text()
            + ": \""
            + whole.replace("\"", "\\\"")
            + "\"`");
  }

  private void reportUnknownKey(Scalar key, Shape shape, String what, Optional<String> cutOff) {
    String message = "unknown key `" + key.text() + "` in the " + what;
    // prose ("e.g. greeting") is surely a cut value; a single word may rather be a typo
    Optional<String> proseCutOff = cutOff.filter(c -> looksLikeProse(key.text()));
    String hint =
        proseCutOff
            .or(() -> Suggestions.didYouMean(key.text(), shape.fieldNames()))
            .or(() -> cutOff)
            .or(() -> sectionHolding(key.text(), shape))
            .orElse("known keys: " + String.join(", ", shape.fieldNames()));
    Optional<String> misspelt =
        shape == Shapes.ROOT
            ? Suggestions.misspelt(key.text(), shape.fieldNames())
            : Optional.empty();
    Optional<String> tlsNotServed =
        shape == ServerShapes.SERVER ? ServerShapes.tlsNotServed(key.text()) : Optional.empty();
    if (tlsNotServed.isPresent()) {
      diagnostics.error("unknown-key", key.origin(), message, tlsNotServed.get());
    } else if (misspelt.isPresent()) {
      // A lenient root file tolerates keys of other tools, but `sever:` is not one: ignoring it
      // would silently fall back to defaults (port 8080).
      diagnostics.error(
          "unknown-key", key.origin(), message, "did you mean `" + misspelt.get() + "`?");
    } else if (shape.strict()) {
      diagnostics.error("unknown-key", key.origin(), message, hint);
    } else {
      diagnostics.warning("unknown-key", key.origin(), message + " (ignored)", hint);
    }
  }

  private static boolean looksLikeProse(String key) {
    return key.contains(" ")
        || key.startsWith("e.g.")
        || key.startsWith("i.e.")
        || key.equals("etc.");
  }

  /** "`port` belongs under `server:`" when the key is a field of one of the shape's sections. */
  private static Optional<String> sectionHolding(String key, Shape shape) {
    return shape.fields().stream()
        .filter(f ->
            f.type() instanceof FieldType.Object section && section.shape().field(key).isPresent())
        .findFirst()
        .map(f -> "`" + key + "` belongs under `" + f.name() + ":`");
  }

  private void checkValue(Field field, Scalar key, YamlNode value, String what) {
    if (isNull(value)) {
      return; // an empty value counts as absent; required fields are reported by reportMissing
    }
    String name = "`" + key.text() + "`";
    switch (field.type()) {
      case FieldType.Text text -> {
        if (value instanceof Scalar scalar) {
          checkText(field, text, scalar, name);
        } else {
          wrongType(name, "a string", value);
        }
      }
      case FieldType.Int range -> {
        if (value instanceof Scalar scalar && scalar.kind() == ScalarKind.INTEGER) {
          checkRange(field, range, scalar, name);
        } else {
          wrongType(name, "an integer", value);
        }
      }
      case FieldType.Bool ignored -> {
        if (!(value instanceof Scalar scalar && scalar.kind() == ScalarKind.BOOLEAN)) {
          wrongType(name, "`true` or `false`", value);
        }
      }
      case FieldType.IntOrText ignored -> {
        if (!(value instanceof Scalar)) {
          wrongType(name, "an integer or a string", value);
        }
      }
      case FieldType.TextList ignored -> {
        if (value instanceof Sequence sequence) {
          for (YamlNode item : sequence.items()) {
            if (!(item instanceof Scalar scalar) || scalar.isNull()) {
              wrongType("each entry of " + name, "a string", item);
            }
          }
        } else {
          wrongType(name, "a list of strings", value);
        }
      }
      case FieldType.ScalarMap ignored -> checkScalarMap(name, value);
      case FieldType.Document ignored -> {
        if (!(value instanceof Mapping)) {
          diagnostics.error(
              field.code().orElse("invalid-type"),
              value.origin(),
              name + " must be a mapping, found " + value.describe());
        }
      }
      case FieldType.Value ignored -> {}
      case FieldType.Object object -> checkMapping(value, object.shape(), nested(what, name));
      case FieldType.MapOf map -> checkMapOf(name, map.shape(), value);
      case FieldType.ListOf list -> checkListOf(name, list.shape(), value);
      case FieldType.ObjectOrList either -> {
        if (value instanceof Sequence) {
          checkListOf(name, either.item(), value);
        } else if (value instanceof Mapping) {
          checkMapping(value, either.object(), nested(what, name));
        } else {
          wrongType(name, "a mapping or a list", value);
        }
      }
    }
  }

  private void checkText(Field field, FieldType.Text text, Scalar scalar, String name) {
    String code = field.code().orElse("invalid-value");
    for (FieldType.Misplaced misplaced : text.misplaced()) {
      if (misplaced.value().equals(scalar.text())) {
        diagnostics.error(misplaced.code(), scalar.origin(), misplaced.message(), misplaced.hint());
        return;
      }
    }
    if (!text.choices().isEmpty() && !text.choices().contains(scalar.text())) {
      String hint =
          Suggestions.didYouMean(scalar.text(), text.choices())
              .orElse("use one of: " + String.join(", ", text.choices()));
      diagnostics.error(
          code,
          scalar.origin(),
          name + " is `" + scalar.text() + "`, which is not supported",
          hint);
    }
    text.pattern()
        .filter(p -> !Pattern.matches(p, scalar.text()))
        .ifPresent(p ->
            diagnostics.error(
                code,
                scalar.origin(),
                name + " is `" + scalar.text() + "`; it must match " + p,
                Shapes.patternHint(p)));
  }

  private void checkRange(Field field, FieldType.Int range, Scalar scalar, String name) {
    boolean inRange;
    try {
      long value = Long.decode(scalar.text().replace("_", ""));
      inRange = value >= range.minimum() && value <= range.maximum();
    } catch (NumberFormatException e) {
      // an integer (so tagged by the YAML reader) that a long cannot hold is out of every range;
      // it was reported as "must be an integer, found an integer"
      inRange = false;
    }
    if (!inRange) {
      String bounds =
          range.maximum() >= Integer.MAX_VALUE
              ? "at least " + range.minimum()
              : "between " + range.minimum() + " and " + range.maximum();
      diagnostics.error(
          field.code().orElse("invalid-value"),
          scalar.origin(),
          name + " is " + scalar.text() + "; it must be " + bounds);
    }
  }

  private void checkScalarMap(String name, YamlNode value) {
    if (!(value instanceof Mapping mapping)) {
      wrongType(name, "a mapping of names to values", value);
      return;
    }
    for (YamlNode.Entry entry : mapping.entries()) {
      if (!(entry.value() instanceof Scalar)) {
        wrongType(
            "`" + entry.key().text() + "` in " + name,
            "a string, number or boolean",
            entry.value());
      }
    }
  }

  private void checkMapOf(String name, Shape shape, YamlNode value) {
    if (!(value instanceof Mapping mapping)) {
      wrongType(name, "a mapping keyed by name", value);
      return;
    }
    for (YamlNode.Entry entry : mapping.entries()) {
      checkMapping(entry.value(), shape, shape.id() + " `" + entry.key().text() + "`");
    }
  }

  private void checkListOf(String name, Shape shape, YamlNode value) {
    if (!(value instanceof Sequence sequence)) {
      wrongType(name, "a list", value);
      return;
    }
    int index = 0;
    for (YamlNode item : sequence.items()) {
      index++;
      checkMapping(item, shape, ordinal(index) + " entry of " + name);
    }
  }

  /**
   * What a nested mapping is called: {@code tool `auth`}, and {@code root configuration
   * `tools.cache`} rather than {@code root configuration `tools` `cache`}.
   */
  private static String nested(String what, String name) {
    return what.endsWith("`")
        ? what.substring(0, what.length() - 1) + "." + name.substring(1)
        : what + " " + name;
  }

  private static String ordinal(int n) {
    String suffix =
        n % 100 >= 11 && n % 100 <= 13
            ? "th"
            : switch (n % 10) {
              case 1 -> "st";
              case 2 -> "nd";
              case 3 -> "rd";
              default -> "th";
            };
    return n + suffix;
  }

  private void wrongType(String name, String expected, YamlNode found) {
    diagnostics.error(
        "invalid-type",
        found.origin(),
        name + " must be " + expected + ", found " + found.describe());
  }

  static boolean isNull(YamlNode node) {
    return node instanceof Scalar scalar && scalar.isNull();
  }

  private static String lowerFirst(String text) {
    String trimmed = text.endsWith(".") ? text.substring(0, text.length() - 1) : text;
    return trimmed.isEmpty()
        ? trimmed
        : Character.toLowerCase(trimmed.charAt(0)) + trimmed.substring(1);
  }
}
