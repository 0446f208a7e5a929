package dev.svc.compile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.compile.Compilation.Success;
import dev.svc.suite.Expectation;
import dev.svc.suite.PromptSuite;
import dev.svc.suite.ResourceSuite;
import dev.svc.suite.Suite;
import dev.svc.suite.ToolCase;
import dev.svc.suite.ToolSuite;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tests.terse} beside a tool: what it compiles to, and each mistake's report. */
class TestDiagnosticsTest {
  @TempDir Path dir;

  static final String PROJECT =
      """
      == .svc
      name: shop
      == app/adapters/shop.terse
      connector: sqlite
      connection_string: ":memory:"
      == app/tools/get_product/config.terse
      description: One product.
      use: shop
      statement: SELECT id, name FROM products WHERE id = {{ inputs.id }}
      inputs:
        id: {type: int, description: Product id.}
        note: {type: string, description: A note., optional: true}
      == app/tools/get_product/fixtures.sql
      CREATE TABLE products (id INTEGER, name TEXT);
      """;

  @Test
  void aTestFileCompilesToASuiteOfCasesWithTheirExpectationsInOrder() {
    ProjectFixture.write(
        dir,
        PROJECT
            + """
            == app/tools/get_product/tests.terse
            fixtures: [fixtures.sql]
            cases:
              finds one:
                inputs: {id: 3}
                headers: {X-Api-Key: secret}
                expect:
                  result: [{id: 3, name: kettle}]
                  rows_contain: [{name: kettle}]
                  row_count: 1
                  json_path: {"$[0].name": kettle}
                  truncated: false
              refuses text:
                inputs: {id: three}
                expect:
                  error: "must be an integer"
            """);

    Success success = (Success) ProjectFixture.compile(dir);

    assertThat(success.suites()).hasSize(1);
    ToolSuite suite = (ToolSuite) success.suites().getFirst();
    assertThat(suite.tool()).isEqualTo("get_product");
    assertThat(suite.file()).isEqualTo("app/tools/get_product/tests.terse");
    assertThat(suite.fixtures()).containsExactly("app/tools/get_product/fixtures.sql");
    assertThat(suite.cases())
        .extracting(ToolCase::name)
        .containsExactly("finds one", "refuses text");
    ToolCase first = suite.cases().getFirst();
    assertThat(first.origin().toString()).isEqualTo("app/tools/get_product/tests.terse:3:3");
    assertThat(first.arguments().toString()).isEqualTo("{\"id\":3}");
    assertThat(first.headers()).containsEntry("X-Api-Key", "secret");
    assertThat(first.expectations())
        .extracting(e -> e.getClass().getSimpleName())
        .containsExactly("Result", "RowsContain", "RowCount", "PathValue", "Truncated");
    assertThat(suite.cases().get(1).expectations().getFirst())
        .isInstanceOf(Expectation.ErrorMatching.class);
  }

  @Test
  void everyMistakeInATestFileIsReportedAtItsPositionAllAtOnce() {
    List<String> diagnostics =
        ProjectFixture.diagnostics(
            dir,
            PROJECT
                + """
                == app/tools/get_product/tests.terse
                fixtures: [missing.sql]
                cases:
                  typos:
                    inputs: {idd: 3, note: 4}
                    expect:
                      json_path:
                        "$[0.name": x
                        name: y
                      row_count: 1
                  bad pattern:
                    inputs: {id: 1}
                    expect:
                      error: "("
                      rows_contain: {name: x}
                      bogus: 1
                  nothing expected:
                    expect: {}
                == app/tools/ghost/tests.terse
                cases: {}
                """);

    assertThat(diagnostics)
        .containsExactly(
            "app/tools/get_product/tests.terse:1:12: error[missing-fixture]: fixture file"
                + " `missing.sql` does not exist",
            "app/tools/get_product/tests.terse:4:13: error[invalid-test-input]: required input"
                + " `id` of tool `get_product` is missing",
            "app/tools/get_product/tests.terse:4:14: error[invalid-test-input]: tool `get_product`"
                + " has no input `idd`",
            "app/tools/get_product/tests.terse:4:28: error[invalid-test-input]: input `note` is"
                + " string, found an integer (quote it to pass text: \"42\")",
            "app/tools/get_product/tests.terse:7:9: error[invalid-json-path]: `$[0.name` is not a"
                + " JSON path: `[` at character 2 is not closed",
            "app/tools/get_product/tests.terse:8:9: error[invalid-json-path]: `name` is not a JSON"
                + " path: a JSON path starts with `$`",
            "app/tools/get_product/tests.terse:13:14: error[invalid-expectation]: `error` of case"
                + " `bad pattern` is not a regular expression: Unclosed group",
            "app/tools/get_product/tests.terse:14:21: error[invalid-expectation]: `rows_contain`"
                + " must be a list of mappings (the fields each row must hold), found a mapping",
            "app/tools/get_product/tests.terse:15:7: error[unknown-key]: unknown key `bogus` in"
                + " the test-case `bad pattern.expect`",
            "app/tools/get_product/tests.terse:17:13: error[missing-expectation]: case `nothing"
                + " expected` expects nothing",
            "app/tools/ghost: warning[missing-config]: directory `app/tools/ghost` has no"
                + " config.terse, so it is not a tool",
            "app/tools/ghost/tests.terse:1:1: error[unknown-test-target]:"
                + " `app/tools/ghost/tests.terse` tests no tool: its directory has no config.terse");
  }

  @Test
  void fixturesNeedAToolOnASqlAdapter() {
    List<String> diagnostics =
        ProjectFixture.diagnostics(
            dir,
            """
            == .svc
            name: shop
            == app/tools/hello/config.terse
            description: Says hello.
            == app/tools/hello/handler.ts
            export default () => "hello";
            == app/tools/hello/seed.sql
            SELECT 1;
            == app/tools/hello/tests.terse
            fixtures: [seed.sql]
            cases:
              greets:
                expect: {result: hello}
            """);

    assertThat(diagnostics)
        .containsExactly(
            "app/tools/hello/tests.terse:1:12: error[invalid-fixture]: fixtures are SQL run on the"
                + " tool's adapter; tool `hello` has no SQL adapter");
  }

  @Test
  void anInMemorySqliteNeedsAToolOnASqlAdapter() {
    List<String> diagnostics =
        ProjectFixture.diagnostics(
            dir,
            """
            == .svc
            name: shop
            == app/tools/hello/config.terse
            description: Says hello.
            == app/tools/hello/handler.ts
            export default () => "hello";
            == app/tools/hello/tests.terse
            in_memory_sqlite: true
            cases:
              greets:
                expect: {result: hello}
            """);

    assertThat(diagnostics)
        .containsExactly(
            "app/tools/hello/tests.terse:1:19: error[invalid-test-database]: `in_memory_sqlite`"
                + " replaces a SQL adapter; tool `hello` has none");
  }

  @Test
  void inputsOfAToolWithAnInputSchemaAreCheckedAgainstIt() {
    List<String> diagnostics =
        ProjectFixture.diagnostics(
            dir,
            """
            == .svc
            name: shop
            == app/tools/t/config.terse
            description: A tool.
            input_schema:
              type: object
              properties: {n: {type: integer, minimum: 1}}
              required: [n]
            == app/tools/t/handler.ts
            export default () => 1;
            == app/tools/t/tests.terse
            cases:
              too small:
                inputs: {n: 0}
                expect: {result: 1}
              refused on purpose:
                inputs: {n: 0}
                expect: {error: ""}
            """);

    assertThat(diagnostics).hasSize(1);
    assertThat(diagnostics.getFirst())
        .startsWith(
            "app/tools/t/tests.terse:3:13: error[invalid-test-input]: the inputs do not match the"
                + " input_schema of tool `t`: ")
        .contains("minimum");
  }

  @Test
  void aCaseThatExpectsAnErrorMayPassArgumentsTheToolWouldRefuse() {
    List<String> diagnostics =
        ProjectFixture.diagnostics(
            dir,
            PROJECT
                + """
                == app/tools/get_product/tests.terse
                cases:
                  refuses text:
                    inputs: {id: three, extra: 1}
                    expect: {error: ""}
                """);

    assertThat(diagnostics).isEmpty();
  }

  static final String CONTENT =
      """
      == .svc
      name: shop
      == app/prompts/recommend.terse
      description: Recommend a product.
      arguments:
        need: {description: What for., required: true}
        budget: {description: In euros., default: no limit}
      messages:
        - role: user
          text: "I want to {{ need }} for {{ budget }}."
      == app/resources/guide/config.terse
      name: guide
      uri: shop://guide
      text: "# Guide"
      == app/resources/items/config.terse
      name: items
      uri_template: "shop://items/{id}{?lang}"
      text_template: "item {{ id }}"
      """;

  @Test
  void promptAndResourceTestsCompileToSuitesWithTemplatesExpanded() {
    ProjectFixture.write(
        dir,
        CONTENT
            + """
            == app/prompts/recommend.tests.terse
            cases:
              fills in the need:
                arguments: {need: brew coffee}
                expect:
                  messages: [{role: user, text: "I want to brew coffee for no limit."}]
            == app/resources/guide/tests.terse
            cases:
              is markdown:
                expect: {mime_type: text/markdown, text_matches: "^# "}
            == app/resources/items/tests.terse
            cases:
              item seven in German:
                arguments: {id: "7", lang: de}
                expect: {uri: "shop://items/7?lang=de", text: item 7}
            """);

    Success success = (Success) ProjectFixture.compile(dir);

    assertThat(success.suites())
        .extracting(Suite::title)
        .containsExactly(
            "prompt recommend", "resource shop://guide", "template shop://items/{id}{?lang}");
    ResourceSuite items = (ResourceSuite) success.suites().get(2);
    assertThat(items.cases().getFirst().uri()).isEqualTo("shop://items/7?lang=de");
    PromptSuite prompt = (PromptSuite) success.suites().getFirst();
    assertThat(prompt.cases().getFirst().arguments()).containsEntry("need", "brew coffee");
  }

  @Test
  void mistakesInPromptAndResourceTestsAreReportedAtTheirPositions() {
    List<String> diagnostics =
        ProjectFixture.diagnostics(
            dir,
            CONTENT
                + """
                == app/prompts/recommend.tests.terse
                cases:
                  forgets the need:
                    arguments: {budgett: "5"}
                    expect: {json_path: {"$[0]text": x}}
                == app/prompts/missing.tests.terse
                cases: {}
                == app/resources/guide/tests.terse
                cases:
                  has arguments:
                    arguments: {id: "1"}
                    expect: {}
                == app/resources/items/tests.terse
                cases:
                  gives nothing:
                    expect: {text_matches: "["}
                """);

    assertThat(diagnostics)
        .containsExactly(
            "app/prompts/missing.tests.terse:1:1: error[unknown-test-target]:"
                + " `app/prompts/missing.tests.terse` tests no prompt: there is no `missing.terse`"
                + " beside it",
            "app/prompts/recommend.tests.terse:2:3: error[invalid-test-input]: case `forgets the"
                + " need` leaves out `need`, a required argument of prompt `recommend`",
            "app/prompts/recommend.tests.terse:3:17: error[invalid-test-input]: prompt"
                + " `recommend` has no argument `budgett`",
            "app/prompts/recommend.tests.terse:4:26: error[invalid-json-path]: `$[0]text` is not"
                + " a JSON path: unexpected `t` at character 5; use `.name` or `[index]`",
            "app/resources/guide/tests.terse:3:17: error[invalid-test-input]: a resource has no"
                + " arguments; only a template does",
            "app/resources/guide/tests.terse:4:13: error[missing-expectation]: case `has"
                + " arguments` expects nothing",
            "app/resources/items/tests.terse:2:3: error[invalid-test-input]: case `gives nothing`"
                + " gives a template neither `arguments` nor a `uri`",
            "app/resources/items/tests.terse:3:28: error[invalid-expectation]: `text_matches` is"
                + " not a regular expression: Unclosed character class");
  }

  @Test
  void mistakesInAgentTestsAreReportedAtTheirPositions() {
    List<String> diagnostics =
        ProjectFixture.diagnostics(
            dir,
            PROJECT
                + """
                == app/agents/clerk/config.terse
                description: A clerk.
                instruction: Help.
                model: {provider: openai_compatible, model: any}
                == app/agents/clerk/tests.terse
                cases:
                  typos:
                    message: hi
                    model:
                      - tool_calls: [{tool: get_prodcut}]
                      - {}
                    expect:
                      tool_calls: [{tool: get_product, args: {}}]
                  nothing expected:
                    message: hi
                    model: [{text: hello}]
                    expect: {}
                == app/agents/ghost/tests.terse
                cases: {}
                """);

    assertThat(diagnostics)
        .containsExactly(
            "app/agents/clerk/tests.terse:5:29: error[unknown-tool]: no tool is named"
                + " `get_prodcut`",
            "app/agents/clerk/tests.terse:6:9: error[invalid-model-turn]: a scripted model turn"
                + " needs `text`, `tool_calls` or both",
            "app/agents/clerk/tests.terse:8:40: error[invalid-expectation]: unknown key `args` in"
                + " an expected tool call",
            "app/agents/clerk/tests.terse:12:13: error[missing-expectation]: case `nothing"
                + " expected` expects nothing",
            "app/agents/ghost: warning[missing-config]: directory `app/agents/ghost` has no"
                + " config.terse, so it is not an agent",
            "app/agents/ghost/tests.terse:1:1: error[unknown-test-target]:"
                + " `app/agents/ghost/tests.terse` tests no agent: its directory has no"
                + " config.terse");
  }
}
