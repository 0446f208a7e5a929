package dev.svc.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import dev.svc.model.Model;
import dev.svc.model.ScriptBundle;
import dev.svc.model.Scripts;
import dev.svc.testing.NpmFixture;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Scripts are bundled with esbuild whenever a project is compiled: TypeScript and resolution errors
 * are diagnostics at their position, and the model carries the bundles.
 */
class ScriptBundlingTest {
  @TempDir Path dir;

  static final String HELLO =
      """
      == app/tools/hello/config.terse
      description: Says hello.
      """;

  static Stream<Arguments> diagnostics() {
    return Stream.of(
        argumentSet(
            "a TypeScript syntax error is reported at its line and column (in characters)",
            HELLO
                + """
                == app/tools/hello/handler.ts
                export default ({ inputs }: { inputs: object }) => {
                  const greeting = "héllo" + ;
                  return greeting;
                };
                """,
            """
            app/tools/hello/handler.ts:2:30: error[script-syntax]: unexpected ";"
            1 error, 0 warnings
            """),
        argumentSet(
            "an error in a local file a script imports is reported in that file",
            HELLO
                + """
                == app/tools/hello/handler.ts
                import { format } from "./format";
                export default () => format("hi");
                == app/tools/hello/format.ts
                export function format(text: string) {
                  return text as as string;
                }
                """,
            """
            app/tools/hello/format.ts:2:21: error[script-syntax]: expected ";" but found "string"
            1 error, 0 warnings
            """),
        argumentSet(
            "a local import that does not resolve is reported at the import",
            HELLO
                + """
                == app/tools/hello/handler.ts
                import { format } from "./fromat";
                export default () => format("hi");
                == app/tools/hello/format.ts
                export const format = (text: string) => text;
                """,
            """
            app/tools/hello/handler.ts:1:24: error[unresolved-import]: could not resolve "./fromat"
              hint: paths start at the importing file's folder; TypeScript files may be imported without their extension
            1 error, 0 warnings
            """),
        argumentSet(
            "an npm package that is not installed names the package and the importing file",
            HELLO
                + """
                == package.json
                {"name": "shop", "dependencies": {"left-pad": "1.3.0"}}
                == app/tools/hello/handler.ts
                import leftPad from "left-pad";
                export default () => leftPad("x", 3);
                """,
            """
            app/tools/hello/handler.ts:1:21: error[missing-package]: `app/tools/hello/handler.ts` imports the npm package `left-pad`, which is not installed in node_modules
              hint: run `npm install` in the project directory
            1 error, 0 warnings
            """),
        argumentSet(
            "an npm package missing from package.json too gets an npm install hint naming it",
            HELLO
                + """
                == package.json
                {"name": "shop"}
                == app/tools/hello/handler.ts
                import { z } from "zod";
                export default () => z.string().parse("x");
                """,
            """
            app/tools/hello/handler.ts:1:19: error[missing-package]: `app/tools/hello/handler.ts` imports the npm package `zod`, which is not installed in node_modules
              hint: run `npm install zod` in the project directory
            1 error, 0 warnings
            """),
        argumentSet(
            "importing an npm package needs a package.json at the project root",
            HELLO
                + """
                == app/tools/hello/handler.ts
                import { z } from "zod";
                export default () => z.string().parse("x");
                """,
            """
            app/tools/hello/handler.ts:1:19: error[missing-package]: `app/tools/hello/handler.ts` imports the npm package `zod`, but the project has no package.json
              hint: add package.json at the project root (`npm init -y`) and run `npm install zod`
            1 error, 0 warnings
            """),
        argumentSet(
            "a Node.js built-in module cannot be imported",
            HELLO
                + """
                == app/tools/hello/handler.ts
                import { readFileSync } from "node:fs";
                export default () => readFileSync("/etc/passwd", "utf8");
                """,
            """
            app/tools/hello/handler.ts:1:30: error[host-module]: `app/tools/hello/handler.ts` imports `node:fs`, a Node.js module; scripts run in a sandbox without Node's modules
              hint: use fetch for HTTP; file system, process and network modules are not available
            1 error, 0 warnings
            """),
        argumentSet(
            "an import used only as a type is dropped, so it needs no package",
            HELLO
                + """
                == app/tools/hello/handler.ts
                import type { ZodType } from "zod";
                export default (schema?: ZodType) => "ok";
                """,
            ""),
        argumentSet(
            "a named export that does not exist is reported at the reference, with a did-you-mean",
            """
            == app/tools/hello/config.terse
            description: Says hello.
            handler: handler.ts#greet
            == app/tools/hello/handler.ts
            export const greets = () => "hi";
            """,
            """
            app/tools/hello/config.terse:2:10: error[missing-export]: the handler `app/tools/hello/handler.ts` has no export `greet`
              hint: did you mean `greets`?
            1 error, 0 warnings
            """),
        argumentSet(
            "a script found by convention must have a default export",
            HELLO
                + """
                == app/tools/hello/handler.ts
                export function hello() { return "hi"; }
                """,
            """
            app/tools/hello/config.terse:1:1: error[missing-export]: the handler `app/tools/hello/handler.ts` has no default export
              hint: add `export default function …`, or name an export with `#name` (its exports: hello)
            1 error, 0 warnings
            """),
        argumentSet(
            "top-level await is refused: a script's top level runs at the start of every call",
            HELLO
                + """
                == app/tools/hello/handler.ts
                const config = await Promise.resolve({ greeting: "hi" });
                export default () => config.greeting;
                """,
            """
            app/tools/hello/handler.ts: error[script-syntax]: top-level await is not supported: a script's top level runs synchronously at the start of every call
              hint: move the await into the exported function
            1 error, 0 warnings
            """),
        argumentSet(
            "an esbuild warning in a script is a warning",
            HELLO
                + """
                == app/tools/hello/handler.ts
                export default () => ({ a: 1, a: 2 });
                """,
            """
            app/tools/hello/handler.ts:1:31: warning[script-warning]: duplicate key "a" in object literal
            0 errors, 1 warning
            """));
  }

  @ParameterizedTest
  @MethodSource("diagnostics")
  void scriptProblemsAreDiagnosticsAtTheirPosition(String files, String expected) {
    assertThat(ProjectFixture.report(dir, files)).isEqualTo(expected);
  }

  @Test
  void aBundleInlinesTheLocalFilesItImportsAndKeepsNoTypeScript() {
    Model model =
        ProjectFixture.model(
            dir,
            ProjectFixture.DEFAULT_ROOT
                + HELLO
                + """
                == app/tools/hello/handler.ts
                import { shout } from "../../shared/text";
                export default ({ inputs }: { inputs: { name: string } }) => shout(inputs.name);
                == app/shared/text.ts
                export const shout = (text: string): string => text.toUpperCase();
                """);

    ScriptBundle bundle = model.scripts().bundle("app/tools/hello/handler.ts").orElseThrow();
    assertThat(bundle.code())
        .contains("toUpperCase")
        .contains("module.exports")
        .doesNotContain("import ")
        .doesNotContain(": string");
    assertThat(model.scripts().bundles())
        .extracting(ScriptBundle::path)
        .containsExactly("app/tools/hello/handler.ts");
    assertThat(model.scripts().vendor()).isEmpty();
  }

  @Test
  void everyScriptOfATool_handlerTransformsAndAuthPlugin_isBundled() {
    Model model =
        ProjectFixture.model(
            dir,
            ProjectFixture.DEFAULT_ROOT
                + """
                == app/tools/a/config.terse
                description: Conventions with exact names.
                auth:
                  plugin: bearer
                == app/tools/a/handler.ts
                export default () => 1;
                == app/tools/a/input.ts
                export default ({ inputs }) => inputs;
                == app/tools/a/output.ts
                export default ({ results }) => results;
                == app/tools/b/config.terse
                description: Conventions by words.
                == app/tools/b/handler.ts
                export default () => 2;
                == app/tools/b/user_input_validator.ts
                export default ({ inputs }) => inputs;
                == app/tools/b/row_data_mapper.ts
                export default ({ results }) => results;
                == app/plugins/bearer.ts
                export default ({ headers }) => headers["authorization"] === "Bearer ok";
                """);

    assertThat(model.scripts().bundles())
        .extracting(ScriptBundle::path)
        .containsExactly(
            "app/plugins/bearer.ts",
            "app/tools/a/handler.ts",
            "app/tools/a/input.ts",
            "app/tools/a/output.ts",
            "app/tools/b/handler.ts",
            "app/tools/b/row_data_mapper.ts",
            "app/tools/b/user_input_validator.ts");
  }

  @Test
  void npmPackagesGoToOneSharedVendorBundleThatScriptsRequire() {
    NpmFixture.install(dir);
    Model model =
        ProjectFixture.model(
            dir,
            ProjectFixture.DEFAULT_ROOT
                + """
                == app/tools/a/config.terse
                description: Uses both packages.
                == app/tools/a/handler.ts
                import slug from "tiny-slug";
                import count from "tiny-counter";
                export default () => [slug("A B"), count([1])];
                == app/tools/b/config.terse
                description: Uses one package.
                == app/tools/b/handler.ts
                import { shout } from "tiny-slug";
                export default () => shout("b");
                """);

    Scripts scripts = model.scripts();
    assertThat(scripts.vendor()).isPresent();
    assertThat(scripts.vendor().get())
        .contains("\"tiny-slug\"")
        .contains("\"tiny-counter\"")
        .contains("replace(/[^a-z0-9]+/g");
    assertThat(scripts.bundle("app/tools/a/handler.ts").orElseThrow().code())
        .contains("require(\"tiny-slug\")")
        .doesNotContain("replace(/[^a-z0-9]+/g");
  }

  @Test
  void theSameProjectAlwaysGivesTheSameBundles() {
    NpmFixture.install(dir);
    String files =
        ProjectFixture.DEFAULT_ROOT
            + HELLO
            + """
            == app/tools/hello/handler.ts
            import slug from "tiny-slug";
            import { VERSION } from "./version";
            export default () => slug("x " + VERSION);
            == app/tools/hello/version.ts
            export const VERSION = "1";
            """;

    Scripts first = ProjectFixture.model(dir, files).scripts();
    Scripts second = ProjectFixture.model(dir, files).scripts();

    assertThat(second).isEqualTo(first);
  }

  @Test
  void aProjectWithoutScriptsHasNoBundles() {
    Model model =
        ProjectFixture.model(
            dir,
            ProjectFixture.DEFAULT_ROOT
                + """
                == app/prompts/greet.terse
                messages:
                  - role: user
                    text: Say hello.
                """);

    assertThat(model.scripts()).isEqualTo(Scripts.NONE);
  }
}
