package dev.svc.model;

import java.util.List;

/**
 * A compiled statement: placeholders are already separated from text, so values can only ever be
 * bound, never spliced into the statement.
 */
public sealed interface Statement {

  /** The statement as written. */
  String source();

  /** Names of the inputs the statement reads, in order of first use. */
  List<String> inputNames();

  /**
   * SQL with one JDBC {@code ?} per placeholder occurrence.
   *
   * @param sql the SQL to prepare
   * @param parameters what is bound to each {@code ?}, in order
   */
  record Sql(String source, String sql, List<Parameter> parameters) implements Statement {
    public Sql {
      parameters = List.copyOf(parameters);
    }

    @Override
    public List<String> inputNames() {
      return parameters.stream().map(Parameter::input).distinct().toList();
    }
  }

  /**
   * One bound SQL parameter.
   *
   * @param asText whether it was written inside a string literal, so it is bound as text and
   *     concatenated with the literal's other parts
   */
  record Parameter(String input, boolean asText) {}

  /** A MongoDB command template: JSON text with placeholders as values or inside strings. */
  record Mongo(String source, List<Segment> segments) implements Statement {
    public Mongo {
      segments = List.copyOf(segments);
    }

    @Override
    public List<String> inputNames() {
      return Segment.inputNames(segments);
    }
  }

  /** A Redis command: arguments already split; each argument is literal text and placeholders. */
  record Redis(String source, List<List<Segment>> arguments) implements Statement {
    public Redis {
      arguments = arguments.stream().map(List::copyOf).toList();
    }

    @Override
    public List<String> inputNames() {
      return Segment.inputNames(arguments.stream().flatMap(List::stream).toList());
    }
  }

  /** A piece of a template: literal text or a placeholder. */
  sealed interface Segment {
    static List<String> inputNames(List<Segment> segments) {
      return segments.stream()
          .filter(Placeholder.class::isInstance)
          .map(s -> ((Placeholder) s).input())
          .distinct()
          .toList();
    }
  }

  record Literal(String text) implements Segment {}

  /**
   * A placeholder.
   *
   * @param insideString whether it sits inside a JSON string (MongoDB): then the value's text is
   *     escaped into the string; otherwise the value's JSON encoding replaces it
   */
  record Placeholder(String input, boolean insideString) implements Segment {}
}
