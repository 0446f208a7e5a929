package dev.svc.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** YAML-level problems of any file, each pinned to its exact output. */
class YamlDiagnosticsTest {
  @TempDir Path dir;

  static Stream<Arguments> rules() {
    return Stream.of(
        argumentSet(
            "a YAML syntax error in a tool is reported at its position, and only once",
            """
            == app/tools/hello/config.terse
            description: "Says hello.
            handler: handler.ts
            == app/tools/hello/handler.ts
            export default () => 1;
            """,
            """
            app/tools/hello/config.terse:1:14: error[yaml-syntax]: invalid YAML: found unexpected end of stream (while scanning a quoted scalar)
            1 error, 0 warnings
            """),
        argumentSet(
            "a comma inside a flow mapping cuts a value in two; the hint says to quote it",
            """
            == app/tools/hello/config.terse
            description: Says hello.
            inputs:
              suffix: {type: string, description: Key suffix, e.g. greeting}
            == app/tools/hello/handler.ts
            export default () => 1;
            """,
            """
            app/tools/hello/config.terse:3:51: error[unknown-key]: unknown key `e.g. greeting` in the input `suffix`
              hint: a comma inside `{…}` ends the value: quote it, `description: "Key suffix, e.g. greeting"`
            1 error, 0 warnings
            """),
        argumentSet(
            "a single word cut off by a comma in a flow mapping gets the quoting hint too",
            """
            == app/tools/hello/config.terse
            description: Says hello.
            inputs:
              suffix: {type: string, description: Suffix, appended}
            == app/tools/hello/handler.ts
            export default () => 1;
            """,
            """
            app/tools/hello/config.terse:3:47: error[unknown-key]: unknown key `appended` in the input `suffix`
              hint: a comma inside `{…}` ends the value: quote it, `description: "Suffix, appended"`
            1 error, 0 warnings
            """),
        argumentSet(
            "an unknown key that is not prose after a value keeps its did-you-mean",
            """
            == app/tools/hello/config.terse
            description: Says hello.
            inputs:
              suffix: {type: string, descripton: Key suffix}
            == app/tools/hello/handler.ts
            export default () => 1;
            """,
            """
            app/tools/hello/config.terse:3:26: error[unknown-key]: unknown key `descripton` in the input `suffix`
              hint: did you mean `description`?
            1 error, 0 warnings
            """),
        argumentSet(
            "a YAML syntax error in the root file stops reading the project",
            """
            == .svc
            name: shop
              version: 1
            == app/tools/hello/config.terse
            description: Says hello.
            == app/tools/hello/handler.ts
            export default () => 1;
            """,
            """
            .svc:2:10: error[yaml-syntax]: invalid YAML: mapping values are not allowed here
            1 error, 0 warnings
            """),
        argumentSet(
            "a key written twice is an error pointing at the second one",
            """
            == app/tools/hello/config.terse
            description: Says hello.
            handler: handler.ts
            description: Says hi.
            == app/tools/hello/handler.ts
            export default () => 1;
            """,
            """
            app/tools/hello/config.terse:3:1: error[duplicate-key]: key `description` is written twice in this mapping
              hint: the first one is at line 1; keep one
            1 error, 0 warnings
            """),
        argumentSet(
            "a definition file holds one YAML document",
            """
            == app/tools/hello/config.terse
            description: Says hello.
            ---
            description: Says hi.
            == app/tools/hello/handler.ts
            export default () => 1;
            """,
            """
            app/tools/hello/config.terse:3:1: error[yaml-syntax]: a definition file holds one YAML document, found a second one
              hint: remove the `---` separator or move the second document into its own file
            1 error, 0 warnings
            """),
        argumentSet(
            "a definition file must be a mapping",
            """
            == app/tools/hello/config.terse
            - description: Says hello.
            == app/tools/hello/handler.ts
            export default () => 1;
            """,
            """
            app/tools/hello/config.terse:1:1: error[invalid-type]: a tool must be a mapping, found a list
            1 error, 0 warnings
            """),
        argumentSet(
            "a file that is a list or a lone value is that one error, not also the fields it lacks",
            """
            == app/tools/hello/config.terse
            - 1
            - 2
            == app/prompts/greet.terse
            42
            == app/agents/helper/config.terse
            just text
            """,
            """
            app/agents/helper/config.terse:1:1: error[invalid-type]: an agent must be a mapping, found a string
            app/prompts/greet.terse:1:1: error[invalid-type]: a prompt must be a mapping, found an integer
            app/tools/hello/config.terse:1:1: error[invalid-type]: a tool must be a mapping, found a list
            3 errors, 0 warnings
            """),
        argumentSet(
            "an empty tool file is a tool with nothing in it",
            """
            == app/tools/hello/config.terse
            == app/tools/hello/handler.ts
            export default () => 1;
            """,
            """
            app/tools/hello/config.terse:1:1: error[missing-field]: `description` is missing from the tool
              hint: add `description:` (what the tool does; shown to models)
            1 error, 0 warnings
            """),
        argumentSet(
            "tabs used for indentation are a syntax error",
            """
            == app/tools/hello/config.terse
            description: Says hello.
            inputs:
            \tname: {type: string}
            == app/tools/hello/handler.ts
            export default () => 1;
            """,
            """
            app/tools/hello/config.terse:3:1: error[yaml-syntax]: invalid YAML: found character '\\t(TAB)' that cannot start any token. (Do not use \\t(TAB) for indentation) (while scanning for the next token)
            1 error, 0 warnings
            """),
        argumentSet(
            "a file nested deeper than 200 levels is reported where it passes the limit, not a"
                + " stack overflow",
            "== app/tools/hello/config.terse\n"
                + "description: Says hello.\n"
                + "deep: "
                + "[".repeat(100_000)
                + "]".repeat(100_000)
                + "\n== app/tools/hello/handler.ts\nexport default () => 1;\n",
            """
            app/tools/hello/config.terse:2:206: error[yaml-syntax]: invalid YAML: nested more than 200 levels deep
            1 error, 0 warnings
            """),
        argumentSet(
            "an alias inside the mapping its anchor names is reported at the alias, not a stack"
                + " overflow",
            """
            == app/tools/hello/config.terse
            description: Says hello.
            annotations: &loop
              title: Hello
              again: *loop
            == app/tools/hello/handler.ts
            export default () => 1;
            """,
            """
            app/tools/hello/config.terse:4:10: error[yaml-syntax]: invalid YAML: the alias `*loop` is inside the node its anchor `&loop` names, so it would never end
            1 error, 0 warnings
            """),
        argumentSet(
            "aliases of aliases (billion laughs) are refused at the alias that copies too much,"
                + " rather than expanded for ever",
            "== app/tools/hello/config.terse\n"
                + "description: Says hello.\n"
                + "l0: &l0 [lol, lol, lol]\n"
                + IntStream.rangeClosed(1, 16)
                    .mapToObj(
                        i -> "l%d: &l%d [*l%d, *l%d, *l%d]\n".formatted(i, i, i - 1, i - 1, i - 1))
                    .collect(Collectors.joining())
                + "== app/tools/hello/handler.ts\nexport default () => 1;\n",
            """
            app/tools/hello/config.terse:11:15: error[yaml-syntax]: invalid YAML: aliases repeat more than 100000 values in this file; write the values out, or use fewer aliases of aliases
            1 error, 0 warnings
            """),
        argumentSet(
            "an alias counts as deep as what it copies",
            "== app/tools/hello/config.terse\n"
                + "description: Says hello.\n"
                + "deep: &deep "
                + "[".repeat(150)
                + "]".repeat(150)
                + "\nagain: "
                + "[".repeat(100)
                + "*deep"
                + "]".repeat(100)
                + "\n== app/tools/hello/handler.ts\nexport default () => 1;\n",
            """
            app/tools/hello/config.terse:3:108: error[yaml-syntax]: invalid YAML: nested more than 200 levels deep
            1 error, 0 warnings
            """),
        argumentSet(
            "a control character is reported where it is, not at the start of the file",
            "== app/tools/hello/config.terse\n"
                + "description: Says hello.\r\n"
                + "inputs:\r\n"
                + "  name: {type: string, description: Wh\u0001o.}\n"
                + "== app/tools/hello/handler.ts\nexport default () => 1;\n",
            """
            app/tools/hello/config.terse:3:39: error[yaml-syntax]: invalid YAML: the character U+0001 is not allowed
              hint: remove it, or write it as an escape in a double-quoted string ("\\u0001")
            1 error, 0 warnings
            """),
        argumentSet(
            "an alias of a mapping that is closed already is read as a copy",
            """
            == app/tools/hello/config.terse
            description: Says hello.
            inputs:
              first: &text {type: string, description: A name.}
              second: *text
            == app/tools/hello/handler.ts
            export default () => 1;
            """,
            """
            """));
  }

  @ParameterizedTest
  @MethodSource("rules")
  @Timeout(60) // a file that expands for ever fails rather than hangs the build
  void reportsExactlyWhatTheRuleSays(String files, String expected) {
    assertThat(ProjectFixture.report(dir, files)).isEqualTo(expected);
  }
}
