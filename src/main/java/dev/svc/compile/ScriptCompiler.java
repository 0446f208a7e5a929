package dev.svc.compile;

import dev.svc.diagnostic.Diagnostics;
import dev.svc.diagnostic.Suggestions;
import dev.svc.model.ScriptRef;
import dev.svc.model.Scripts;
import dev.svc.script.ScriptBundler;
import java.nio.file.Path;
import java.util.List;

/**
 * Bundles every script the project uses ({@link ScriptBundler}) and checks that each reference
 * names an export its file has. Runs on every compilation, so {@code validate}, {@code start} and
 * {@code build} report the same TypeScript errors. A project without scripts never starts esbuild.
 */
final class ScriptCompiler {
  private final Path projectDirectory;
  private final Diagnostics diagnostics;

  ScriptCompiler(Path projectDirectory, Diagnostics diagnostics) {
    this.projectDirectory = projectDirectory;
    this.diagnostics = diagnostics;
  }

  Scripts compile(List<ScriptResolver.Use> uses) {
    if (uses.isEmpty()) {
      return Scripts.NONE;
    }
    ScriptBundler.Result result =
        ScriptBundler.bundle(
            projectDirectory, uses.stream().map(u -> u.script().path()).distinct().toList());
    diagnostics.addAll(result.diagnostics());
    for (ScriptResolver.Use use : uses) {
      ScriptBundler.Entry entry = result.entries().get(use.script().path());
      if (entry != null && entry.esModule()) {
        checkExport(use, entry);
      }
    }
    return result.scripts();
  }

  private void checkExport(ScriptResolver.Use use, ScriptBundler.Entry entry) {
    ScriptRef script = use.script();
    String export = script.exportName();
    if (entry.exports().contains(export)) {
      return;
    }
    String file = script.path();
    String known =
        entry.exports().isEmpty()
            ? file + " exports nothing"
            : "its exports: " + String.join(", ", entry.exports());
    if (export.equals(ScriptRef.DEFAULT_EXPORT)) {
      diagnostics.error(
          "missing-export",
          use.origin(),
          "the " + use.role() + " `" + file + "` has no default export",
          "add `export default function …`, or name an export with `#name` (" + known + ")");
    } else {
      diagnostics.error(
          "missing-export",
          use.origin(),
          "the " + use.role() + " `" + file + "` has no export `" + export + "`",
          Suggestions.didYouMean(export, entry.exports()).orElse(known));
    }
  }
}
