package dev.svc.project;

import dev.svc.diagnostic.Origin;
import java.util.List;
import java.util.Optional;

/**
 * A YAML node with the position it was written at. Only the three shapes YAML has; scalars keep
 * their source text and the kind the YAML 1.2 core schema resolves them to.
 */
public sealed interface YamlNode {

  Origin origin();

  /** A word for error messages: "a string", "a list", "a mapping". */
  String describe();

  /** Kinds of scalar as the YAML 1.2 core schema resolves them (quoted scalars are strings). */
  enum ScalarKind {
    STRING,
    INTEGER,
    FLOAT,
    BOOLEAN,
    NULL
  }

  record Scalar(String text, ScalarKind kind, Origin origin) implements YamlNode {
    public boolean isNull() {
      return kind == ScalarKind.NULL;
    }

    @Override
    public String describe() {
      return switch (kind) {
        case STRING -> "a string";
        case INTEGER -> "an integer";
        case FLOAT -> "a number";
        case BOOLEAN -> "a boolean";
        case NULL -> "nothing";
      };
    }
  }

  record Sequence(List<YamlNode> items, Origin origin) implements YamlNode {
    public Sequence {
      items = List.copyOf(items);
    }

    @Override
    public String describe() {
      return "a list";
    }
  }

  record Entry(Scalar key, YamlNode value) {}

  record Mapping(List<Entry> entries, Origin origin) implements YamlNode {
    public Mapping {
      entries = List.copyOf(entries);
    }

    public Optional<Entry> entry(String key) {
      return entries.stream().filter(e -> e.key().text().equals(key)).findFirst();
    }

    public Optional<YamlNode> get(String key) {
      return entry(key).map(Entry::value);
    }

    @Override
    public String describe() {
      return "a mapping";
    }
  }
}
