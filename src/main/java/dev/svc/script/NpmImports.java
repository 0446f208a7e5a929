package dev.svc.script;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;

/**
 * What scripts import from outside the project: npm packages, or Node's built-in modules, which the
 * sandbox does not have.
 */
final class NpmImports {
  /** Node's built-in modules: importing one is an error unless a package of that name exists. */
  private static final Set<String> NODE_BUILTINS =
      Set.of(
          "assert",
          "async_hooks",
          "buffer",
          "child_process",
          "cluster",
          "console",
          "constants",
          "crypto",
          "dgram",
          "diagnostics_channel",
          "dns",
          "domain",
          "events",
          "fs",
          "http",
          "http2",
          "https",
          "inspector",
          "module",
          "net",
          "os",
          "path",
          "perf_hooks",
          "process",
          "punycode",
          "querystring",
          "readline",
          "repl",
          "stream",
          "string_decoder",
          "sys",
          "timers",
          "tls",
          "trace_events",
          "tty",
          "url",
          "util",
          "v8",
          "vm",
          "wasi",
          "worker_threads",
          "zlib");

  private NpmImports() {}

  /**
   * Package specifier (as imported) → the source files importing it, from the metafile of the run
   * that left packages external. Only imports that survive in an output count: TypeScript drops
   * imports used only as types.
   */
  static SortedMap<String, SortedSet<String>> read(JsonNode metafile) {
    Set<String> needed = new TreeSet<>();
    for (JsonNode output : metafile.path("outputs")) {
      for (JsonNode imported : output.path("imports")) {
        if (imported.path("external").asBoolean(false)) {
          needed.add(imported.path("path").asString());
        }
      }
    }
    SortedMap<String, SortedSet<String>> imports = new TreeMap<>();
    for (Map.Entry<String, JsonNode> input : metafile.path("inputs").properties()) {
      for (JsonNode imported : input.getValue().path("imports")) {
        String path = imported.path("path").asString();
        if (imported.path("external").asBoolean(false) && needed.contains(path)) {
          imports.computeIfAbsent(path, k -> new TreeSet<>()).add(input.getKey());
        }
      }
    }
    return imports;
  }

  /**
   * Whether {@code specifier} names one of Node's modules ({@code node:fs}, {@code fs}) rather than
   * a package installed under that name in {@code project}.
   */
  static boolean isHostModule(Path project, String specifier) {
    if (specifier.startsWith("node:")) {
      return true;
    }
    String name = packageName(specifier);
    return NODE_BUILTINS.contains(name)
        && !Files.isDirectory(project.resolve("node_modules").resolve(name));
  }

  /** {@code @scope/name/sub} → {@code @scope/name}; {@code name/sub} → {@code name}. */
  static String packageName(String specifier) {
    String[] parts = specifier.split("/");
    if (specifier.startsWith("@") && parts.length >= 2) {
      return parts[0] + "/" + parts[1];
    }
    return parts[0];
  }
}
