package dev.svc.model;

import java.util.List;
import java.util.Optional;

/**
 * Every script of a project after bundling: one bundle per script file that a tool or auth plugin
 * uses, sorted by path, and the shared bundle of the npm packages they import.
 *
 * @param bundles one per script file, sorted by path
 * @param vendor CommonJS JavaScript whose {@code module.exports.packages} maps each imported
 *     package name (as written in the import, e.g. {@code zod} or {@code date-fns/format}) to its
 *     module; empty when no script imports a package
 */
public record Scripts(List<ScriptBundle> bundles, Optional<String> vendor) {
  public static final Scripts NONE = new Scripts(List.of(), Optional.empty());

  public Scripts {
    // not Comparator.comparing, whose serializable lambda the start-up cache cannot hold (Model)
    bundles = bundles.stream().sorted((a, b) -> a.path().compareTo(b.path())).toList();
  }

  public boolean isEmpty() {
    return bundles.isEmpty();
  }

  public Optional<ScriptBundle> bundle(String path) {
    return bundles.stream().filter(b -> b.path().equals(path)).findFirst();
  }
}
