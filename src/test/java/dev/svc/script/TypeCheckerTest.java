package dev.svc.script;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.compile.Compilation;
import dev.svc.diagnostic.Diagnostic;
import dev.svc.model.Model;
import dev.svc.testing.NpmFixture;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TypeCheckerTest {
  @TempDir Path work;

  private static final String WEATHER =
      """
      == .svc
      name: shop
      == app/tools/get_weather/config.terse
      description: The weather.
      inputs:
        city:
          description: A city.
        days:
          type: int
          default: "3"
      """;

  private List<String> check(String files) {
    Model model = ProjectFixture.model(work, files);
    return TypeChecker.check(work, model).stream().map(ProjectFixture::line).toList();
  }

  @Test
  void aMisspeltInputIsATypeErrorAtItsPosition() {
    List<String> found =
        check(
            WEATHER
                + """
                == app/tools/get_weather/handler.ts
                export default ({ inputs }: Svc.HandlerPayload<"get_weather">) => {
                  return inputs.dayz * 2;
                };
                """);

    assertThat(found)
        .containsExactly(
            "app/tools/get_weather/handler.ts:2:17: error[type-error]: TS2339: Property 'dayz'"
                + " does not exist on type '{ city: string; days: number; }'.");
  }

  @Test
  void aCorrectProjectHasNoTypeErrors() {
    List<String> found =
        check(
            WEATHER
                + """
                == app/tools/get_weather/handler.ts
                export default async ({ inputs }: Svc.HandlerPayload<"get_weather">) => {
                  const res = await fetch(`https://example.com/${encodeURIComponent(inputs.city)}`);
                  console.log("days", inputs.days);
                  return { weather: await res.json(), days: inputs.days * 2 };
                };
                """);

    assertThat(found).isEmpty();
  }

  @Test
  void aHandlerWhosePayloadTypeNamesAnotherInputIsAnErrorAtTheExport() {
    List<String> found =
        check(
            WEATHER
                + """
                == app/tools/get_weather/handler.ts
                interface Payload {
                  inputs: { city: string; dayz: number };
                }

                export default function handler({ inputs }: Payload) {
                  return inputs.dayz;
                }
                """);

    assertThat(found).hasSize(1);
    assertThat(found.getFirst())
        .startsWith(
            "app/tools/get_weather/handler.ts:5:1: error[type-error]: TS2322: the default export"
                + " is the handler but does not have its type:")
        .contains("'dayz'");
  }

  @Test
  void anInputTransformThatReturnsNoObjectAndAnOutputTransformMisusingResultsAreCaught() {
    List<String> found =
        check(
            WEATHER
                + """
                == app/tools/get_weather/config.terse
                description: The weather.
                mappers:
                  input: transforms.ts#normalise
                  output: transforms.ts#compact
                inputs:
                  city:
                    description: A city.
                == app/tools/get_weather/transforms.ts
                export function normalise({ inputs }: Svc.InputTransformPayload<"get_weather">) {
                  return inputs.city.trim();
                }

                export function compact({ results, tool }: Svc.OutputTransformPayload<"get_weather">) {
                  return results.length + tool.length + inputs;
                }
                == app/tools/get_weather/handler.ts
                export default ({ inputs }: Svc.HandlerPayload<"get_weather">) => inputs;
                """);

    assertThat(found)
        .containsExactly(
            "app/tools/get_weather/transforms.ts:1:1: error[type-error]: TS2322: the export"
                + " `normalise` is the input transform but does not have its type: Type '({"
                + " inputs }: InputTransformPayload<\"get_weather\">) => string' is not"
                + " assignable to type 'InputTransform<\"get_weather\">'. Type 'string' is not"
                + " assignable to type 'Record<string, unknown> | Promise<Record<string,"
                + " unknown>>'.",
            "app/tools/get_weather/transforms.ts:6:41: error[type-error]: TS2304: Cannot find"
                + " name 'inputs'.");
  }

  @Test
  void anAuthPluginReadingAFieldItsPayloadLacksOrReturningTheWrongDecisionIsCaught() {
    List<String> found =
        check(
            """
            == .svc
            name: shop
            == app/plugins/tenant.ts
            export default ({ headers, cookies }: Svc.AuthPluginPayload<"tenant">) =>
              headers["x-tenant"] === "acme" ? "yes" : { allow: false, reason: 42 };
            == app/tools/hello/config.terse
            description: Hello.
            auth:
              plugin: tenant
            == app/tools/hello/handler.ts
            export default () => 1;
            """);

    assertThat(found).hasSize(2);
    assertThat(found.get(0))
        .startsWith(
            "app/plugins/tenant.ts:1:1: error[type-error]: TS2322: the default export is the auth"
                + " plugin but does not have its type:");
    assertThat(found.get(1))
        .startsWith("app/plugins/tenant.ts:1:28: error[type-error]: TS2339: Property 'cookies'");
  }

  @Test
  void untypedScriptsAndJavaScriptPass() {
    List<String> found =
        check(
            WEATHER
                + """
                == app/tools/get_weather/handler.ts
                export default ({ inputs }) => inputs.anything;
                == app/tools/other/config.terse
                description: Other.
                handler: other.js
                == app/tools/other/other.js
                module.exports = { default: (p) => p.whatever };
                """);

    assertThat(found).isEmpty();
  }

  @Test
  void theProjectsOwnTypeScriptWins() throws Exception {
    Path own = work.resolve("node_modules/typescript");
    Files.createDirectories(own.resolve("lib"));
    Files.writeString(
        own.resolve("package.json"), "{\"name\": \"typescript\", \"version\": \"5.4.5\"}");
    Files.writeString(
        own.resolve("lib/typescript.js"),
        TypeChecker.compiler(Path.of("/nonexistent")).source()
            + "\nts = Object.assign({}, ts, { flattenDiagnosticMessageText: () => 'own compiler' });\n");
    for (String lib : List.of("lib.es2023.d.ts")) {
      Files.writeString(own.resolve("lib").resolve(lib), "/// <reference lib=\"es2022\" />\n");
    }
    BundledTypeScript.libs()
        .forEach((name, text) -> {
          if (!name.equals("lib.es2023.d.ts")) {
            try {
              Files.writeString(own.resolve("lib").resolve(name), text);
            } catch (java.io.IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
          }
        });

    List<String> found =
        check(
            WEATHER
                + """
                == app/tools/get_weather/handler.ts
                export default ({ inputs }: Svc.HandlerPayload<"get_weather">) => inputs.dayz;
                """);

    assertThat(TypeChecker.compiler(work).version()).isEqualTo("5.4.5");
    assertThat(found)
        .containsExactly(
            "app/tools/get_weather/handler.ts:1:74: error[type-error]: TS2339: own compiler");
  }

  @Test
  void aTypeScriptOtherThan5IsNotUsed() throws Exception {
    Path own = work.resolve("node_modules/typescript");
    Files.createDirectories(own.resolve("lib"));
    Files.writeString(own.resolve("package.json"), "{\"version\": \"7.0.0\"}");
    Files.writeString(own.resolve("lib/typescript.js"), "throw new Error('not JavaScript');");

    assertThat(TypeChecker.compiler(work).version()).isEqualTo(TypeChecker.BUNDLED_VERSION);
  }

  @Test
  void aHugeImportedFileIsADiagnosticNotACrash() throws Exception {
    String files =
        WEATHER
            + """
            == app/tools/get_weather/handler.ts
            import { rows } from "./data";
            export default () => rows.length;
            == app/tools/get_weather/data.ts
            export const rows: number[] = [];
            """;
    Model model = ProjectFixture.model(work, files);
    Files.writeString(
        work.resolve("app/tools/get_weather/data.ts"),
        "export const rows: number[] = [];\n" + "// padding\n".repeat(500_000));

    List<String> found = TypeChecker.check(work, model).stream().map(ProjectFixture::line).toList();

    assertThat(found)
        .containsExactly(
            "app/tools/get_weather/handler.ts: error[type-error]: app/tools/get_weather/data.ts is"
                + " too large to type-check (5500034 bytes; files up to 4 MiB, 64 MiB in all)");
  }

  @Test
  void garbageInADeclarationFileIsDiagnosedNotACrash() throws Exception {
    String files =
        WEATHER
            + """
            == app/tools/get_weather/handler.ts
            import type { Row } from "./row";
            export default (): Row[] => [];
            == app/tools/get_weather/row.d.ts
            export interface Row { id: number }
            """;
    Model model = ProjectFixture.model(work, files);
    byte[] garbage = new byte[200_000];
    new java.util.Random(7).nextBytes(garbage);
    Files.write(work.resolve("app/tools/get_weather/row.d.ts"), garbage);

    List<String> found = TypeChecker.check(work, model).stream().map(ProjectFixture::line).toList();

    assertThat(found).isNotEmpty().allMatch(line -> line.contains("error[type-error]: TS"));
    assertThat(found)
        .contains(
            "app/tools/get_weather/handler.ts:1:26: error[type-error]: TS2306: File"
                + " 'app/tools/get_weather/row.d.ts' is not a module.")
        .anyMatch(line -> line.startsWith("app/tools/get_weather/row.d.ts:"));
  }

  @Test
  void theExampleProjectsTypeCheckClean() {
    for (String example : List.of("examples/conformance", "examples/quickstart")) {
      Path directory = Path.of(example).toAbsolutePath();
      if (!(ProjectFixture.compile(directory) instanceof Compilation.Success success)) {
        throw new AssertionError(example + " does not compile");
      }

      assertThat(TypeChecker.check(directory, success.model())).as(example).isEmpty();
    }
  }

  @Test
  void theDocumentedWaysOfTypingScriptsTypeCheck() {
    List<String> found =
        check(
            """
            == .svc
            name: shop
            == app/plugins/bearer.ts
            export default async function ({ headers, policy }: Svc.AuthPluginPayload<"bearer">) {
              const auth = headers["authorization"] ?? "";
              if (!auth.startsWith("Bearer ")) return { allow: false, reason: "missing bearer token" };
              const res = await fetch(`${policy.issuer}/introspect`, {
                method: "POST",
                headers: { "content-type": "application/x-www-form-urlencoded" },
                body: `token=${encodeURIComponent(auth.slice(7))}`,
              });
              return res.ok;
            }
            == app/tools/get_weather/config.terse
            description: The weather.
            auth:
              plugin: bearer
              policy:
                issuer: https://auth.example.com
            inputs:
              city:
                description: A city.
            == app/tools/get_weather/handler.ts
            const handler: Svc.Handler<"get_weather"> = async ({ inputs, auth }) => {
              const res = await fetch(`https://wttr.in/${encodeURIComponent(inputs.city)}`);
              if (!res.ok) throw new Error(`weather service answered ${res.status}`);
              console.info("weather", inputs.city, auth?.subject ?? "anonymous");
              return mcp.content(mcp.text(await res.text()));
            };
            export default handler;
            == app/tools/find_user/config.terse
            description: Users by name.
            handler: handler.ts
            mappers:
              input: transforms.ts#normalise
              output: transforms.ts#compact
            inputs:
              name:
                description: A name.
            == app/tools/find_user/transforms.ts
            export function normalise({ inputs }: Svc.InputTransformPayload<"find_user">) {
              return { name: inputs.name.trim().toLowerCase(), limit: 10 };
            }
            export function compact({ results }: Svc.OutputTransformPayload<"find_user">) {
              return results.map((r) => `${r.id}:${r.name}`);
            }
            == app/tools/find_user/handler.ts
            interface Payload {
              inputs: { name: string; limit: number };
              tool: string;
            }
            export default ({ inputs }: Payload) => [{ id: inputs.limit, name: inputs.name }];
            == app/tools/whoami/config.terse
            description: Who calls.
            == app/tools/whoami/handler.ts
            export default ({ auth }: Svc.HandlerPayload<"whoami">) =>
              auth ? { user: auth.subject, email: auth.claims.email ?? null } : { user: null };
            """);

    assertThat(found).isEmpty();
  }

  @Test
  void npmPackagesAreSeenThroughTheirTypeDeclarations() {
    NpmFixture.install(work);
    List<String> found =
        check(
            WEATHER
                + """
                == node_modules/typed-units/package.json
                {"name": "typed-units", "version": "1.0.0", "main": "index.js", "types": "index.d.ts"}
                == node_modules/typed-units/index.js
                export const celsius = (f) => (f - 32) / 1.8;
                == node_modules/typed-units/index.d.ts
                export declare function celsius(fahrenheit: number): number;
                == app/tools/get_weather/handler.ts
                import slug from "tiny-slug";
                import { celsius } from "typed-units";
                export default ({ inputs }: Svc.HandlerPayload<"get_weather">) =>
                  ({ city: slug(inputs.city), temperature: celsius(inputs.city) });
                """);

    assertThat(found)
        .containsExactly(
            "app/tools/get_weather/handler.ts:4:52: error[type-error]: TS2345: Argument of type"
                + " 'string' is not assignable to parameter of type 'number'.");
  }

  @Test
  void aProjectWhoseFilesReadTheSameIsNotCheckedAgainAndAChangeIsSeen() throws Exception {
    String files =
        WEATHER
            + """
            == app/tools/get_weather/handler.ts
            import { twice } from "./twice";
            export default ({ inputs }: Svc.HandlerPayload<"get_weather">) => twice(inputs.days);
            == app/tools/get_weather/twice.ts
            export const twice = (n: number) => n * 2;
            """;
    Model model = ProjectFixture.model(work, files);
    int before = TypeChecker.RUNS.get();

    List<Diagnostic> first = TypeChecker.check(work, model);
    List<Diagnostic> second = TypeChecker.check(work, model);
    Files.writeString(
        work.resolve("app/tools/get_weather/twice.ts"), "export const twice = (s: string) => s;\n");
    List<String> afterChange =
        TypeChecker.check(work, model).stream().map(ProjectFixture::line).toList();

    assertThat(first).isEmpty();
    assertThat(second).isEmpty();
    assertThat(afterChange)
        .containsExactly(
            "app/tools/get_weather/handler.ts:2:73: error[type-error]: TS2345: Argument of type"
                + " 'number' is not assignable to parameter of type 'string'.");
    assertThat(TypeChecker.RUNS.get() - before).isEqualTo(2);
  }

  @Test
  void codeNestedTooDeeplyForTheCompilerIsADiagnosticNotACrash() throws Exception {
    String files =
        WEATHER
            + """
            == app/tools/get_weather/handler.ts
            import { deep } from "./deep";
            export default () => deep;
            == app/tools/get_weather/deep.ts
            export const deep = [];
            """;
    Model model = ProjectFixture.model(work, files);
    Files.writeString(
        work.resolve("app/tools/get_weather/deep.ts"),
        "export const deep = " + "[".repeat(100_000) + "]".repeat(100_000) + ";\n");

    List<String> found = TypeChecker.check(work, model).stream().map(ProjectFixture::line).toList();

    assertThat(found).isNotEmpty().allMatch(line -> line.contains("error[type-error]: "));
  }
}
