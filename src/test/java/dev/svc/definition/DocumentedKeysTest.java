package dev.svc.definition;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.diagnostic.Diagnostic;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.project.YamlParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every key the editor schemas offer ({@link EditorSchemas}, written from the shapes the loader
 * checks files against; {@link EditorSchemasTest} keeps {@code schema/} equal to them) is
 * documented in the pages that describe its file kind.
 *
 * <p>A key's path is dotted from the top of its file ({@code server.limits.drain_delay} in {@code
 * .svc}), except inside a map of named entries or a list (a tool's {@code inputs}, a prompt's
 * {@code messages}), where it starts again at the entry ({@code type}, {@code role}): that is how
 * the field tables write them. The key is documented when its page has either
 *
 * <ul>
 *   <li>a table row with a code span holding the path, e.g. {@code | `server.limits.drain_delay` |
 *       … |} in a field table or {@code | `clean_dir: true` | … |} (a single word in passing prose,
 *       such as {@code `type`}, does not count); or
 *   <li>a YAML example ({@code ```yaml}) in which the path is written as nested keys: from the
 *       example's top for a path from the top of a file, at any depth for a path within an entry.
 * </ul>
 *
 * <p>A key only a schema knows is a gap to fix in the docs: a row in the page's field table (its
 * type, default and one line of what it does) and an example, not an exception here.
 *
 * <p>The other way round, a YAML example that names its file ({@code # .svc} or {@code #
 * app/tools/get_rates/config.terse} as its first line, or {@code Minimal
 * (`app/prompts/hello.terse`):} before it) is read by the loader's shape check as that kind of
 * file, and may not hold a key the loader does not know: an example that puts a key in the wrong
 * place teaches it there.
 */
class DocumentedKeysTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** Which pages describe each file kind (the file name of its schema without the suffix). */
  private static final Map<String, List<String>> PAGES =
      Map.of(
          "root", List.of("docs/configuration.md"),
          "adapter", List.of("docs/configuration.md"),
          "tool", List.of("docs/configuration.md"),
          "prompt", List.of("docs/configuration.md"),
          "resource", List.of("docs/configuration.md"),
          "agent", List.of("docs/configuration.md", "docs/agents.md"),
          "tests", List.of("docs/testing.md"),
          "prompt-tests", List.of("docs/testing.md"),
          "resource-tests", List.of("docs/testing.md"),
          "agent-tests", List.of("docs/testing.md"));

  @Test
  void everyKeyOfEveryEditorSchemaIsDocumentedInItsFileKindsPage() throws IOException {
    List<String> undocumented = new ArrayList<>();
    for (Map.Entry<String, String> schema : EditorSchemas.all().entrySet()) {
      String kind = schema.getKey().substring(0, schema.getKey().indexOf(".terse.schema.json"));
      assertThat(PAGES).as("the pages describing %s files", kind).containsKey(kind);
      Documentation docs = Documentation.of(PAGES.get(kind));
      for (Key key : keys(JSON.readTree(schema.getValue()))) {
        if (!docs.mentions(key)) {
          undocumented.add(kind + ": " + key.shown() + " (in " + PAGES.get(kind) + ")");
        }
      }
    }
    assertThat(undocumented)
        .as("keys of the editor schemas that no field table row or YAML example of the docs names")
        .isEmpty();
  }

  @Test
  void theYamlExamplesThatNameTheirFileWriteOnlyKeysTheLoaderKnows() throws IOException {
    List<String> unknown = new ArrayList<>();
    Set<Shape> read = new HashSet<>();
    for (Path page : pages()) {
      String text = Files.readString(page);
      for (Pattern naming : List.of(NAMED_IN_ITS_FIRST_LINE, NAMED_IN_THE_LINE_BEFORE)) {
        Matcher example = naming.matcher(text);
        while (example.find()) {
          String file = example.group(1);
          Optional<Shape> shape = shapeOf(file);
          shape.ifPresent(read::add);
          shape.ifPresent(s -> unknown.addAll(unknownKeys(example.group(2), page, file, s)));
        }
      }
    }
    assertThat(read)
        .as("the kinds of file the examples were read as")
        .contains(Shapes.ROOT, Shapes.ADAPTER, Shapes.TOOL, Shapes.PROMPT, Shapes.RESOURCE)
        .contains(Shapes.AGENT, TestShapes.TESTS, TestShapes.AGENT_TESTS);
    assertThat(unknown)
        .as("keys of the docs' YAML examples that the loader does not know")
        .isEmpty();
  }

  /** What the loader's shape check says of an example: unknown keys, and YAML it cannot read. */
  private static List<String> unknownKeys(String yaml, Path page, String file, Shape shape) {
    Diagnostics diagnostics = new Diagnostics();
    YamlParser.parse(yaml, page + " (" + file + ")", diagnostics)
        .ifPresent(node -> new ShapeChecker(diagnostics).checkMapping(node, shape, "file"));
    // an example may leave out required fields, or elide a value with …: only keys are pinned
    return diagnostics.sorted().stream()
        .filter(d -> d.code().equals("unknown-key") || d.code().equals("yaml-syntax"))
        .map(Diagnostic::render)
        .toList();
  }

  private static List<Path> pages() throws IOException {
    try (Stream<Path> docs = Files.list(Path.of("docs"))) {
      return Stream.concat(
              docs.filter(page -> page.toString().endsWith(".md")).sorted(),
              Stream.of(Path.of("README.md")))
          .toList();
    }
  }

  @Test
  void pathsStartAgainInsideEntriesOfMapsAndLists() {
    List<Key> tool = keys(JSON.readTree(EditorSchemas.all().get("tool.terse.schema.json")));
    assertThat(tool)
        .contains(new Key("rate_limit.per", "rate_limit.per", true))
        .contains(new Key("type", "inputs.<name>.type", false));
    List<Key> root = keys(JSON.readTree(EditorSchemas.all().get("root.terse.schema.json")));
    assertThat(root)
        .contains(
            new Key(
                "server.auth.policy.introspection.tokens",
                "server.auth.policy.introspection.tokens",
                true))
        .contains(new Key("prompts.directory", "prompts.directory", true))
        .contains(new Key("role", "prompts[].messages[].role", false));
  }

  @Test
  void aYamlExampleDocumentsTheKeysItNests() {
    Documentation docs =
        Documentation.parse(
            """
            ```yaml
            # .svc
            server:
              limits: {drain_delay: 5}
              auth:
                plugin: oauth   # a comment
            inputs:
              region:
                - type: string
            ```
            """);
    assertThat(docs.mentions(new Key("server.limits.drain_delay", "", true))).isTrue();
    assertThat(docs.mentions(new Key("server.auth.plugin", "", true))).isTrue();
    assertThat(docs.mentions(new Key("auth.plugin", "", true))).isFalse();
    assertThat(docs.mentions(new Key("type", "", false))).isTrue();
    assertThat(docs.mentions(new Key("region.type", "", false))).isTrue();
  }

  @Test
  void aTableRowDocumentsTheKeyItNamesAndPassingProseDoesNot() {
    Documentation docs =
        Documentation.parse(
            """
            | Field | Rule |
            |---|---|
            | `server.port` | The port. |
            | `clean_dir: true` | Start afresh. |

            The `type` of an input.
            """);
    assertThat(docs.mentions(new Key("server.port", "", true))).isTrue();
    assertThat(docs.mentions(new Key("clean_dir", "", false))).isTrue();
    assertThat(docs.mentions(new Key("type", "", false))).isFalse();
  }

  /** A YAML example whose first line names its file: {@code # app/tools/get_rates/config.terse}. */
  private static final Pattern NAMED_IN_ITS_FIRST_LINE =
      Pattern.compile("(?ms)^```yaml\\n# ([.\\w/-]*\\.(?:svc|terse))\\b[^\\n]*\\n(.*?)^```");

  /** A YAML example introduced by its file: {@code Minimal (`app/prompts/hello.terse`):}. */
  private static final Pattern NAMED_IN_THE_LINE_BEFORE =
      Pattern.compile(
          "(?ms)^[^\\n]*\\(`([.\\w/-]*\\.(?:svc|terse))`[^\\n]*:\\n\\n```yaml\\n(.*?)^```");

  /** File kinds by their paths, as discovery finds them (docs/configuration.md). */
  private static final Map<String, Shape> SHAPES = new LinkedHashMap<>();

  static {
    SHAPES.put("\\.svc", Shapes.ROOT);
    SHAPES.put("app/adapters/[^/]+\\.terse", Shapes.ADAPTER);
    SHAPES.put("app/tools/[^/]+/config\\.terse", Shapes.TOOL);
    SHAPES.put("app/tools/[^/]+/tests\\.terse", TestShapes.TESTS);
    SHAPES.put("app/prompts/.+\\.tests\\.terse", TestShapes.PROMPT_TESTS);
    SHAPES.put("app/prompts/.+\\.terse", Shapes.PROMPT);
    SHAPES.put("app/resources/.+/config\\.terse", Shapes.RESOURCE);
    SHAPES.put("app/resources/.+/tests\\.terse", TestShapes.RESOURCE_TESTS);
    SHAPES.put("app/agents/[^/]+/config\\.terse", Shapes.AGENT);
    SHAPES.put("app/agents/[^/]+/tests\\.terse", TestShapes.AGENT_TESTS);
  }

  private static Optional<Shape> shapeOf(String file) {
    return SHAPES.entrySet().stream()
        .filter(kind -> file.matches(kind.getKey()))
        .map(Map.Entry::getValue)
        .findFirst();
  }

  /**
   * One key of a schema, or the place keys are under.
   *
   * @param path what the docs must write: dotted from the file's top, or from the entry
   * @param shown the whole way to the key, for the failure message
   * @param fromTop whether {@code path} starts at the top of the file
   */
  record Key(String path, String shown, boolean fromTop) {
    static final Key TOP = new Key("", "", true);

    Key child(String name) {
      return new Key(dotted(path, name), dotted(shown, name), fromTop);
    }

    private static String dotted(String path, String name) {
      return path.isEmpty() ? name : path + "." + name;
    }

    /** An entry of the map or list this key holds: paths start again. */
    Key entry(String marker) {
      return new Key("", shown + marker, false);
    }
  }

  /** Every key of a schema, in order. */
  static List<Key> keys(JsonNode schema) {
    SchemaWalk walk = new SchemaWalk(schema.path("definitions"));
    walk.properties(schema, Key.TOP);
    return walk.keys;
  }

  /** Walks the properties of a schema through its references, maps, lists and alternatives. */
  private static final class SchemaWalk {
    final JsonNode definitions;
    final List<Key> keys = new ArrayList<>();
    final Set<String> enclosing = new HashSet<>();

    SchemaWalk(JsonNode definitions) {
      this.definitions = definitions;
    }

    void properties(JsonNode object, Key at) {
      for (Map.Entry<String, JsonNode> property : object.path("properties").properties()) {
        Key key = at.child(property.getKey());
        keys.add(key);
        value(property.getValue(), key);
      }
    }

    /** The keys under one value: an object, a map or list of entries, or either of two. */
    void value(JsonNode value, Key at) {
      for (JsonNode alternative : value.path("oneOf")) {
        value(alternative, at);
      }
      properties(value, at);
      referenced(value, at);
      referenced(value.path("additionalProperties"), at.entry(".<name>"));
      referenced(value.path("items"), at.entry("[]"));
    }

    void referenced(JsonNode value, Key at) {
      String reference = value.path("$ref").asString("");
      if (reference.isEmpty()) {
        return;
      }
      String name = reference.substring(reference.lastIndexOf('/') + 1);
      if (enclosing.add(name)) { // a shape nested in itself is walked once
        properties(definitions.path(name), at);
        enclosing.remove(name);
      }
    }
  }

  /** What some pages write in code: code spans, and the key paths of their YAML examples. */
  record Documentation(Set<String> codeSpans, List<List<String>> yamlPaths) {
    private static final Pattern FENCE = Pattern.compile("(?ms)^```(\\w*)[^\\n]*\\n(.*?)^```");
    private static final Pattern CODE_SPAN = Pattern.compile("(`+)(.+?)\\1");
    private static final Pattern YAML_KEY =
        Pattern.compile("^( *)((?:- +)*)([A-Za-z_][\\w.-]*) *:(?: |$)(.*)");
    private static final Pattern FLOW_KEY = Pattern.compile("[{,] *([A-Za-z_][\\w-]*) *:");

    static Documentation of(List<String> pages) throws IOException {
      StringBuilder text = new StringBuilder();
      for (String page : pages) {
        text.append(Files.readString(Path.of(page))).append('\n');
      }
      return parse(text.toString());
    }

    static Documentation parse(String markdown) {
      Set<String> spans = new HashSet<>();
      List<List<String>> paths = new ArrayList<>();
      Matcher fence = FENCE.matcher(markdown);
      StringBuilder prose = new StringBuilder();
      int end = 0;
      while (fence.find()) {
        prose.append(markdown, end, fence.start()).append('\n');
        end = fence.end();
        if (fence.group(1).equals("yaml")) {
          paths.addAll(yamlPaths(fence.group(2)));
        }
      }
      prose.append(markdown.substring(end));
      for (String row : prose.toString().split("\n")) {
        if (row.startsWith("|")) {
          Matcher span = CODE_SPAN.matcher(row);
          while (span.find()) {
            String code = span.group(2).strip();
            spans.add(code.split("[:\\s]", 2)[0]); // `clean_dir: true` names clean_dir
          }
        }
      }
      return new Documentation(spans, paths);
    }

    /** The path of every key of a YAML example, from its top: indentation decides nesting. */
    private static List<List<String>> yamlPaths(String yaml) {
      List<List<String>> paths = new ArrayList<>();
      Map<Integer, String> open = new LinkedHashMap<>(); // indentation → key, outermost first
      for (String line : yaml.split("\n")) {
        Matcher key = YAML_KEY.matcher(line);
        if (!key.matches()) {
          continue;
        }
        int indentation = key.group(1).length() + key.group(2).length();
        open.keySet().removeIf(column -> column >= indentation);
        open.put(indentation, key.group(3));
        List<String> path = List.copyOf(open.values());
        paths.add(path);
        Matcher flow = FLOW_KEY.matcher(key.group(4).replaceAll(" #.*", ""));
        while (flow.find()) {
          List<String> nested = new ArrayList<>(path);
          nested.add(flow.group(1));
          paths.add(nested);
        }
      }
      return paths;
    }

    boolean mentions(Key key) {
      if (codeSpans.contains(key.path())) {
        return true;
      }
      List<String> segments = List.of(key.path().split("\\."));
      for (List<String> path : yamlPaths) {
        if (key.fromTop()
            ? path.equals(segments)
            : Collections.indexOfSubList(path, segments) >= 0) {
          return true;
        }
      }
      return false;
    }
  }
}
