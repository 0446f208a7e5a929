package dev.svc.definition;

import dev.svc.diagnostic.Origin;
import dev.svc.project.YamlNode;
import dev.svc.project.YamlNode.Mapping;
import dev.svc.project.YamlNode.Scalar;
import dev.svc.project.YamlNode.ScalarKind;
import dev.svc.project.YamlNode.Sequence;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Read access to a mapping that {@link ShapeChecker} has checked. Values of the wrong type were
 * reported by the checker and read here as absent, so builders never see them.
 */
final class Fields {
  private final Mapping mapping;

  private Fields(Mapping mapping) {
    this.mapping = mapping;
  }

  /** Fields of {@code node}; a non-mapping reads as an empty mapping at its position. */
  static Fields of(YamlNode node) {
    return new Fields(node instanceof Mapping m ? m : new Mapping(List.of(), node.origin()));
  }

  Origin origin() {
    return mapping.origin();
  }

  /** Where key {@code name} is written, or the mapping's position when it is not. */
  Origin keyOrigin(String name) {
    return mapping.entry(name).map(e -> e.key().origin()).orElse(mapping.origin());
  }

  boolean has(String name) {
    return present(name).isPresent();
  }

  Optional<Located<String>> text(String name) {
    return present(name)
        .filter(Scalar.class::isInstance)
        .map(n -> new Located<>(((Scalar) n).text(), n.origin()));
  }

  Optional<Located<Long>> integer(String name) {
    return present(name)
        .filter(n -> n instanceof Scalar s && s.kind() == ScalarKind.INTEGER)
        .flatMap(n -> {
          try {
            return Optional.of(
                new Located<>(Long.decode(((Scalar) n).text().replace("_", "")), n.origin()));
          } catch (NumberFormatException e) {
            return Optional.empty();
          }
        });
  }

  Optional<Located<Boolean>> bool(String name) {
    return present(name)
        .filter(n -> n instanceof Scalar s && s.kind() == ScalarKind.BOOLEAN)
        .map(n ->
            new Located<>(Boolean.parseBoolean(((Scalar) n).text().toLowerCase()), n.origin()));
  }

  Optional<Located<List<Located<String>>>> textList(String name) {
    return present(name)
        .filter(Sequence.class::isInstance)
        .map(n -> {
          List<Located<String>> items = new ArrayList<>();
          for (YamlNode item : ((Sequence) n).items()) {
            if (item instanceof Scalar s && !s.isNull()) {
              items.add(new Located<>(s.text(), s.origin()));
            }
          }
          return new Located<>(List.copyOf(items), n.origin());
        });
  }

  /** Entries of a name → scalar mapping, values as their text, in the order written. */
  List<Entry<Located<String>>> scalarMap(String name) {
    List<Entry<Located<String>>> entries = new ArrayList<>();
    present(name)
        .filter(Mapping.class::isInstance)
        .ifPresent(n -> {
          for (YamlNode.Entry e : ((Mapping) n).entries()) {
            if (e.value() instanceof Scalar s && !s.isNull()) {
              entries.add(new Entry<>(located(e.key()), new Located<>(s.text(), s.origin())));
            }
          }
        });
    return entries;
  }

  /** The node of a free-form field ({@link FieldType.Document}) as written; empty when absent. */
  Optional<YamlNode> node(String name) {
    return present(name);
  }

  Optional<Fields> object(String name) {
    return present(name).filter(Mapping.class::isInstance).map(Fields::of);
  }

  /** Entries of a name → mapping field; a null value reads as an empty mapping. */
  List<Entry<Fields>> mapOf(String name) {
    List<Entry<Fields>> entries = new ArrayList<>();
    present(name)
        .filter(Mapping.class::isInstance)
        .ifPresent(n -> {
          for (YamlNode.Entry e : ((Mapping) n).entries()) {
            entries.add(new Entry<>(located(e.key()), Fields.of(e.value())));
          }
        });
    return entries;
  }

  /** Items of a list-of-mappings field, or empty when absent or not a list. */
  Optional<Located<List<Fields>>> listOf(String name) {
    return present(name)
        .filter(Sequence.class::isInstance)
        .map(n ->
            new Located<>(((Sequence) n).items().stream().map(Fields::of).toList(), n.origin()));
  }

  /** A field holding either a mapping or a list of mappings (only the list form is read here). */
  boolean isList(String name) {
    return present(name).filter(Sequence.class::isInstance).isPresent();
  }

  private Optional<YamlNode> present(String name) {
    return mapping.get(name).filter(n -> !ShapeChecker.isNull(n));
  }

  private static Located<String> located(Scalar key) {
    return new Located<>(key.text(), key.origin());
  }

  /** A keyed entry in the order written. */
  record Entry<V>(Located<String> key, V value) {}
}
