package dev.svc.definition;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The type of a field in a definition file. The reader checks values against it and the editor
 * schemas are written from it, so both always agree.
 */
public sealed interface FieldType {

  /**
   * Any scalar, read as its text. {@code pattern} and {@code choices} constrain the text; {@code
   * misplaced} are values valid elsewhere that get their own diagnostic here.
   */
  record Text(Optional<String> pattern, List<String> choices, List<Misplaced> misplaced)
      implements FieldType {
    public Text {
      choices = List.copyOf(choices);
      misplaced = List.copyOf(misplaced);
    }

    public Text(Optional<String> pattern, List<String> choices) {
      this(pattern, choices, List.of());
    }
  }

  /** A value that is valid in another place, reported here with its own code and hint. */
  record Misplaced(String value, String code, String message, String hint) {}

  /** An integer within bounds. */
  record Int(long minimum, long maximum) implements FieldType {}

  record Bool() implements FieldType {}

  /** An integer or a string (e.g. a port). */
  record IntOrText() implements FieldType {}

  /** A list of scalars, read as text. */
  record TextList() implements FieldType {}

  /**
   * A mapping from names to scalars (strings, numbers or booleans), read as text.
   *
   * @param known names some users of the map read, with what they mean (for editors; other names
   *     are allowed too)
   */
  record ScalarMap(Map<String, String> known) implements FieldType {
    public ScalarMap {
      known = Collections.unmodifiableMap(new LinkedHashMap<>(known));
    }

    public ScalarMap() {
      this(Map.of());
    }
  }

  /** A nested mapping with its own fields. */
  record Object(Shape shape) implements FieldType {}

  /** A mapping from user-chosen names to mappings of one shape, in the order written. */
  record MapOf(Shape shape) implements FieldType {}

  /** A list of mappings of one shape. */
  record ListOf(Shape shape) implements FieldType {}

  /** Either a nested mapping or a list of mappings (e.g. {@code prompts} in the root file). */
  record ObjectOrList(Shape object, Shape item) implements FieldType {}

  /**
   * A mapping of any content, kept as written with its positions (e.g. a JSON Schema in YAML): the
   * shape checker only requires a mapping; its meaning is checked where it is compiled.
   */
  record Document() implements FieldType {}

  /**
   * Any YAML value at all (a scalar, a list or a mapping), kept as written with its positions: an
   * expected result or an input of a test case; its meaning is checked where it is compiled.
   */
  record Value() implements FieldType {}

  static Text text() {
    return new Text(Optional.empty(), List.of());
  }

  static Text pattern(String regex) {
    return new Text(Optional.of(regex), List.of());
  }

  static Text choice(String... choices) {
    return new Text(Optional.empty(), List.of(choices));
  }

  static Int positive() {
    return new Int(1, Integer.MAX_VALUE);
  }
}
