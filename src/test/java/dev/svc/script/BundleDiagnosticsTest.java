package dev.svc.script;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.diagnostic.Diagnostic;
import dev.svc.testing.ProjectFixture;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * esbuild's messages as diagnostics, from its printed output alone: positions in characters, codes
 * and hints per run, and what a failed run without a message becomes.
 */
class BundleDiagnosticsTest {
  private static final String HANDLER = "app/tools/hello/handler.ts";
  private static final String SOURCE =
      """
      import { z } from "zod";
      const greeting = "héllo wörld" + ;
      """;

  @TempDir Path project;
  private BundleDiagnostics diagnostics;

  @BeforeEach
  void write() {
    ProjectFixture.write(project, "== " + HANDLER + "\n" + SOURCE);
    diagnostics = new BundleDiagnostics(project, HANDLER);
  }

  /** One message as esbuild prints it with {@code --color=false}. */
  private static String printed(String headline, String location, String... notes) {
    StringBuilder out = new StringBuilder(headline).append("\n\n");
    if (!location.isEmpty()) {
      out.append("    ").append(location).append(":\n      1 │ …\n        ╵   ~\n\n");
    }
    for (String note : notes) {
      out.append("  ").append(note).append("\n\n");
    }
    return out.toString();
  }

  private static Esbuild.Result failed(String... messages) {
    return new Esbuild.Result(1, "", String.join("", messages));
  }

  private List<String> lines() {
    return diagnostics.all().stream()
        .map(d -> d.render().replace("\n  hint: ", " | hint: "))
        .toList();
  }

  @Test
  void aSourceErrorIsAtItsColumnInCharactersNotBytes() {
    String line = SOURCE.lines().toList().get(1);
    int byteColumn = line.substring(0, line.indexOf(';')).getBytes(StandardCharsets.UTF_8).length;

    diagnostics.sources(
        failed(printed("✘ [ERROR] Unexpected \";\"", HANDLER + ":2:" + byteColumn)));

    assertThat(lines())
        .containsExactly(
            HANDLER + ":2:" + (line.indexOf(';') + 1) + ": error[script-syntax]: unexpected \";\"");
  }

  @Test
  void sourceMessagesGetTheirCodeAndTheirFirstNoteAsHint() {
    diagnostics.sources(
        new Esbuild.Result(
            0,
            "",
            printed("▲ [WARNING] Duplicate key \"a\" in object literal [duplicate-object-key]", "")
                + printed(
                    "✘ [ERROR] Could not resolve \"./fromat\"",
                    HANDLER + ":1:18",
                    "You can mark the path as external.")
                + printed(
                    "✘ [ERROR] No matching export in \"a.ts\" for import \"b\"",
                    HANDLER + ":1:9",
                    "Did you mean \"c\"?")));

    assertThat(lines())
        .containsExactly(
            HANDLER + ": warning[script-warning]: duplicate key \"a\" in object literal",
            HANDLER
                + ":1:19: error[unresolved-import]: could not resolve \"./fromat\" | hint: paths"
                + " start at the importing file's folder; TypeScript files may be imported"
                + " without their extension",
            HANDLER
                + ":1:10: error[unresolved-import]: no matching export in \"a.ts\" for import"
                + " \"b\" | hint: Did you mean \"c\"?");
  }

  @Test
  void aRunThatFailsWithoutAMessageStillFailsTheBundling() {
    diagnostics.sources(failed("Segmentation fault\nmore\n"));

    assertThat(lines())
        .containsExactly(HANDLER + ": error[script-bundle]: esbuild failed: Segmentation fault");
  }

  @Test
  void theCommonJsRunReportsAtTheScriptItConverted() {
    diagnostics.commonJs(
        failed(
            printed(
                "✘ [ERROR] Top-level await is currently not supported with the \"cjs\" output"
                    + " format",
                "esm/app/tools/other/handler.js:1:15"),
            printed("✘ [ERROR] Something esbuild itself produced", "esm/unknown.js:3:1")),
        Map.of("esm/app/tools/other/handler.js", "app/tools/other/handler.ts"));

    assertThat(lines())
        .containsExactly(
            "app/tools/other/handler.ts: error[script-syntax]: top-level await is not supported:"
                + " a script's top level runs synchronously at the start of every call | hint:"
                + " move the await into the exported function",
            HANDLER
                + ": error[script-syntax]: something esbuild itself produced | hint: report this"
                + " to the svc maintainers: esbuild rejected its own output");
  }

  private static VendorEntry vendorEntry(String... packages) {
    SortedMap<String, SortedSet<String>> importers = new TreeMap<>();
    for (String specifier : packages) {
      importers.put(specifier, new TreeSet<>(List.of(HANDLER)));
    }
    return new VendorEntry(List.of(packages), importers);
  }

  @Test
  void aPackageTheVendorEntryCannotResolveIsNotInstalled_atEachImport() {
    ProjectFixture.write(project, "== package.json\n{\"dependencies\": {\"zod\": \"3\"}}\n");

    diagnostics.vendor(
        failed(
            printed("✘ [ERROR] Could not resolve \"zod\"", VendorEntry.NAME + ":2:20"),
            printed("✘ [ERROR] Could not resolve \"left-pad\"", VendorEntry.NAME + ":3:20")),
        vendorEntry("left-pad", "zod"));

    assertThat(lines())
        .containsExactly(
            HANDLER
                + ":1:19: error[missing-package]: `"
                + HANDLER
                + "` imports the npm package `zod`, which is not installed in node_modules |"
                + " hint: run `npm install` in the project directory",
            "package.json: error[unsupported-package]: bundling the npm packages failed: could"
                + " not resolve \"left-pad\"");
  }

  @Test
  void anErrorInsideAPackageMeansItCannotRunInTheSandbox() {
    diagnostics.vendor(
        failed(
            printed(
                "✘ [ERROR] Could not resolve \"fs\"",
                "node_modules/pkg/index.js:1:5",
                "The package \"fs\" wasn't found on the file system but is built into node."),
            printed("✘ [ERROR] Something without a place", "")),
        vendorEntry("pkg"));

    assertThat(lines())
        .containsExactly(
            "node_modules/pkg/index.js:1:6: error[unsupported-package]: an npm package cannot be"
                + " bundled: could not resolve \"fs\" | hint: The package \"fs\" wasn't found on"
                + " the file system but is built into node.",
            "package.json: error[unsupported-package]: an npm package cannot be bundled:"
                + " something without a place | hint: scripts run in a sandbox without Node's"
                + " modules");
  }

  @Test
  void aFailedVendorRunWithoutAMessageNamesItsFirstLine() {
    diagnostics.vendor(failed("killed\n"), vendorEntry("zod"));

    assertThat(lines())
        .containsExactly(
            "package.json: error[unsupported-package]: bundling the npm packages failed: killed");
  }

  @Test
  void importsSvcRefusesItselfAreReportedAtTheImport() {
    diagnostics.hostModule(HANDLER, "zod");
    diagnostics.noPackageJson(HANDLER, "zod/mini");

    assertThat(diagnostics.all())
        .extracting(Diagnostic::code)
        .containsExactly("host-module", "missing-package");
    assertThat(lines().get(1))
        .isEqualTo(
            HANDLER
                + ": error[missing-package]: `"
                + HANDLER
                + "` imports the npm package `zod`, but the project has no package.json | hint:"
                + " add package.json at the project root (`npm init -y`) and run `npm install"
                + " zod`");
    assertThat(lines().get(0)).startsWith(HANDLER + ":1:19: error[host-module]: ");
  }
}
