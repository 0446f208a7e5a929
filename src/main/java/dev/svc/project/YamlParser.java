package dev.svc.project;

import dev.svc.diagnostic.Diagnostic;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.diagnostic.Origin;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.api.lowlevel.Parse;
import org.snakeyaml.engine.v2.common.Anchor;
import org.snakeyaml.engine.v2.events.AliasEvent;
import org.snakeyaml.engine.v2.events.CollectionEndEvent;
import org.snakeyaml.engine.v2.events.CollectionStartEvent;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.events.ScalarEvent;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.ReaderException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;

/**
 * Parses YAML text into {@link YamlNode}s with positions. Syntax errors, several documents in one
 * file and keys written twice become diagnostics; parsing never throws.
 */
public final class YamlParser {
  private YamlParser() {}

  /** The most characters (code points) one definition file may hold: the YAML reader's default. */
  public static final int MAX_CODE_POINTS = 3 * 1024 * 1024;

  /**
   * The most bytes one definition file may hold: {@link #MAX_CODE_POINTS} characters of up to four
   * bytes each in UTF-8. A larger file is refused before it is read.
   */
  public static final long MAX_FILE_BYTES = 4L * MAX_CODE_POINTS;

  /**
   * Parses one document. An empty file gives an empty mapping positioned at the file; a syntax
   * error gives no node and an error diagnostic.
   */
  public static Optional<YamlNode> parse(String text, String file, Diagnostics diagnostics) {
    LoadSettings settings =
        LoadSettings.builder()
            .setLabel(file)
            .setAllowDuplicateKeys(true)
            .setCodePointLimit(MAX_CODE_POINTS)
            .build();
    try {
      Optional<Refusal> refusal = refusal(text, settings);
      if (refusal.isPresent()) {
        diagnostics.add(
            Diagnostic.error(
                "yaml-syntax",
                origin(refusal.get().at(), file),
                "invalid YAML: " + refusal.get().message()));
        return Optional.empty();
      }
      Iterator<Node> documents = new Compose(settings).composeAllFromString(text).iterator();
      if (!documents.hasNext()) {
        return Optional.of(new YamlNode.Mapping(List.of(), new Origin(file, 1, 1)));
      }
      Node first = documents.next();
      if (documents.hasNext()) {
        Node second = documents.next();
        diagnostics.error(
            "yaml-syntax",
            origin(second, file),
            "a definition file holds one YAML document, found a second one",
            "remove the `---` separator or move the second document into its own file");
      }
      return Optional.of(convert(first, file, diagnostics));
    } catch (MarkedYamlEngineException e) {
      // At the end of the text (an unclosed quote or bracket), where the construct began helps
      // more.
      boolean atEnd =
          e.getProblemMark()
              .map(m -> m.getIndex() >= text.codePointCount(0, text.length()))
              .orElse(true);
      Optional<Mark> mark =
          atEnd
              ? e.getContextMark().or(e::getProblemMark)
              : e.getProblemMark().or(e::getContextMark);
      Origin at = mark.map(m -> origin(m, file)).orElse(at1(file));
      diagnostics.add(Diagnostic.error("yaml-syntax", at, "invalid YAML: " + describe(e)));
      return Optional.empty();
    } catch (ReaderException e) {
      diagnostics.error(
          "yaml-syntax",
          origin(text, e.getPosition(), file),
          "invalid YAML: the character " + "U+%04X".formatted(e.getCodePoint()) + " is not allowed",
          "remove it, or write it as an escape in a double-quoted string (\"\\u%04X\")"
              .formatted(e.getCodePoint()));
      return Optional.empty();
    } catch (YamlEngineException e) {
      diagnostics.add(
          Diagnostic.error("yaml-syntax", at1(file), "invalid YAML: " + e.getMessage()));
      return Optional.empty();
    }
  }

  /**
   * The most levels of mappings and lists in one file. The composer recurses once per level, so a
   * file of 100,000 nested {@code [} overflowed its stack ({@code svc validate} ended with an
   * internal error); no definition needs a tenth of this.
   */
  static final int MAX_DEPTH = 200;

  /**
   * The most nodes that aliases may add to one file by repeating what their anchors name. The
   * converter copies a node once per alias, so ten lines of aliases of aliases ("billion laughs")
   * expanded to tens of millions of nodes and {@code svc validate} never ended; a definition that
   * shares a few inputs or settings through anchors adds a few dozen.
   */
  static final int MAX_ALIASED_NODES = 100_000;

  /** What the event pass refuses before the text is composed: where, and why. */
  private record Refusal(Mark at, String message) {}

  /** What an anchor names: a node still open, or a closed one with its size once copied. */
  private sealed interface Anchored {
    record Open() implements Anchored {}

    /** {@code nodes} counts the node and all inside it; {@code levels} is 0 for a scalar. */
    record Closed(long nodes, int levels) implements Anchored {}
  }

  /** A mapping or list the event pass is inside: its anchor and what it holds so far. */
  private static final class OpenNode {
    private final Optional<String> anchor;
    private long nodes = 1;
    private int levels = 1;

    private OpenNode(Optional<String> anchor) {
      this.anchor = anchor;
    }

    private void holds(long nodes, int levels) {
      this.nodes += nodes;
      this.levels = Math.max(this.levels, levels + 1);
    }
  }

  /**
   * The first thing the text does that composing and converting it cannot survive, read with the
   * event parser (which keeps its nesting in a list rather than on the stack): going deeper than
   * {@link #MAX_DEPTH} (aliases counted as the nodes they copy), an alias inside the mapping or
   * list its anchor names ({@code a: &a [*a]}), which would make the converted tree endless (the
   * converter overflowed its stack), or aliases adding more than {@link #MAX_ALIASED_NODES} nodes.
   * Empty when there is none.
   */
  private static Optional<Refusal> refusal(String text, LoadSettings settings) {
    Deque<OpenNode> open = new ArrayDeque<>();
    Map<String, Anchored> anchors = new HashMap<>();
    long aliasedNodes = 0;
    for (Event event : new Parse(settings).parseString(text)) {
      switch (event) {
        case CollectionStartEvent start -> {
          if (open.size() + 1 > MAX_DEPTH) {
            return tooDeep(event);
          }
          Optional<String> anchor = start.getAnchor().map(Anchor::getValue);
          anchor.ifPresent(name -> anchors.put(name, new Anchored.Open()));
          open.push(new OpenNode(anchor));
        }
        case CollectionEndEvent end -> {
          OpenNode done = open.pop();
          done.anchor.ifPresent(
              name -> anchors.put(name, new Anchored.Closed(done.nodes, done.levels)));
          if (!open.isEmpty()) {
            open.peek().holds(done.nodes, done.levels);
          }
        }
        case ScalarEvent scalar -> {
          scalar
              .getAnchor()
              .ifPresent(anchor -> anchors.put(anchor.getValue(), new Anchored.Closed(1, 0)));
          if (!open.isEmpty()) {
            open.peek().holds(1, 0);
          }
        }
        case AliasEvent alias -> {
          String name = alias.getAlias().getValue();
          switch (anchors.get(name)) {
            case null -> {} // the composer reports the undefined alias
            case Anchored.Open ignored -> {
              return refusal(
                  alias,
                  "the alias `*"
                      + name
                      + "` is inside the node its anchor `&"
                      + name
                      + "` names, so it would never end");
            }
            case Anchored.Closed copied -> {
              if (open.size() + copied.levels() > MAX_DEPTH) {
                return tooDeep(alias);
              }
              aliasedNodes += copied.nodes();
              if (aliasedNodes > MAX_ALIASED_NODES) {
                return refusal(
                    alias,
                    "aliases repeat more than "
                        + MAX_ALIASED_NODES
                        + " values in this file; write the values out, or use fewer aliases of"
                        + " aliases");
              }
              if (!open.isEmpty()) {
                open.peek().holds(copied.nodes(), copied.levels());
              }
            }
          }
        }
        default -> {}
      }
    }
    return Optional.empty();
  }

  private static Optional<Refusal> tooDeep(Event event) {
    return refusal(event, "nested more than " + MAX_DEPTH + " levels deep");
  }

  private static Optional<Refusal> refusal(Event event, String message) {
    return event.getStartMark().map(at -> new Refusal(at, message));
  }

  private static String describe(MarkedYamlEngineException e) {
    String problem = e.getProblem() == null ? "" : e.getProblem().trim();
    String context = e.getContext() == null ? "" : e.getContext().trim();
    if (problem.isEmpty()) {
      return context;
    }
    return context.isEmpty() ? problem : problem + " (" + context + ")";
  }

  private static YamlNode convert(Node node, String file, Diagnostics diagnostics) {
    Origin origin = origin(node, file);
    return switch (node) {
      case ScalarNode scalar ->
          new YamlNode.Scalar(scalar.getValue(), kindOf(scalar.getTag()), origin);
      case SequenceNode sequence -> {
        List<YamlNode> items = new ArrayList<>();
        for (Node item : sequence.getValue()) {
          items.add(convert(item, file, diagnostics));
        }
        yield new YamlNode.Sequence(items, origin);
      }
      case MappingNode mapping -> {
        List<YamlNode.Entry> entries = new ArrayList<>();
        Map<String, Origin> seen = new HashMap<>();
        for (NodeTuple tuple : mapping.getValue()) {
          YamlNode key = convert(tuple.getKeyNode(), file, diagnostics);
          if (!(key instanceof YamlNode.Scalar scalarKey) || scalarKey.isNull()) {
            diagnostics.error(
                "invalid-type",
                key.origin(),
                "mapping keys must be plain words, found " + key.describe());
            continue;
          }
          Origin earlier = seen.putIfAbsent(scalarKey.text(), scalarKey.origin());
          if (earlier != null) {
            diagnostics.error(
                "duplicate-key",
                scalarKey.origin(),
                "key `" + scalarKey.text() + "` is written twice in this mapping",
                "the first one is at line " + earlier.line() + "; keep one");
            continue;
          }
          entries.add(
              new YamlNode.Entry(scalarKey, convert(tuple.getValueNode(), file, diagnostics)));
        }
        yield new YamlNode.Mapping(entries, origin);
      }
      default -> new YamlNode.Scalar("", YamlNode.ScalarKind.NULL, origin);
    };
  }

  private static YamlNode.ScalarKind kindOf(Tag tag) {
    if (tag.equals(Tag.INT)) {
      return YamlNode.ScalarKind.INTEGER;
    } else if (tag.equals(Tag.FLOAT)) {
      return YamlNode.ScalarKind.FLOAT;
    } else if (tag.equals(Tag.BOOL)) {
      return YamlNode.ScalarKind.BOOLEAN;
    } else if (tag.equals(Tag.NULL)) {
      return YamlNode.ScalarKind.NULL;
    }
    return YamlNode.ScalarKind.STRING;
  }

  private static Origin origin(Node node, String file) {
    return node.getStartMark().map(m -> origin(m, file)).orElse(at1(file));
  }

  private static Origin origin(Mark mark, String file) {
    return new Origin(file, mark.getLine() + 1, mark.getColumn() + 1);
  }

  /**
   * Where the character at {@code codePoints} (counted in code points from the start, as the YAML
   * reader counts) is: lines end at LF, CR or CRLF, and columns count code points.
   */
  private static Origin origin(String text, int codePoints, String file) {
    int line = 1;
    int column = 1;
    int index = 0;
    for (int seen = 0; seen < codePoints && index < text.length(); seen++) {
      int c = text.codePointAt(index);
      index += Character.charCount(c);
      if (c == '\n' || (c == '\r' && !(index < text.length() && text.charAt(index) == '\n'))) {
        line++;
        column = 1;
      } else if (c != '\r') {
        column++;
      }
    }
    return new Origin(file, line, column);
  }

  private static Origin at1(String file) {
    return new Origin(file, 1, 1);
  }
}
