package dev.svc.script;

import dev.svc.diagnostic.Diagnostic;
import dev.svc.diagnostic.Origin;
import dev.svc.json.Jackson;
import dev.svc.model.ScriptBundle;
import dev.svc.model.Scripts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Bundles a project's scripts with esbuild, in three runs:
 *
 * <ol>
 *   <li>every script file at once, as ESM with npm packages left as imports ({@code
 *       --packages=external}): TypeScript is compiled, local imports are inlined, syntax and
 *       resolution errors come back with their positions, and the metafile tells each file's
 *       exports and which files import which packages;
 *   <li>those outputs to CommonJS, so that the sandbox can run a file's top level afresh for every
 *       call (see {@code docs/scripts.md}: calls share no state);
 *   <li>when packages are imported: one vendor bundle of all of them, resolved from the project's
 *       {@code node_modules} by Node's rules. Scripts {@code require} packages from it, so each
 *       package is loaded once per isolate however many tools use it.
 * </ol>
 *
 * The output depends only on the sources (paths are project-relative, everything is sorted), so the
 * same project always gives the same bundles.
 */
public final class ScriptBundler {
  private static final JsonMapper JSON = Jackson.MAPPER;

  /** The name esbuild gives the generated vendor entry in its messages. */
  private static final String VENDOR_ENTRY = "<svc vendor bundle>";

  private static final List<String> COMMON =
      List.of(
          "--platform=neutral",
          "--target=es2022",
          "--charset=utf8",
          "--color=false",
          "--log-limit=0");

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

  private ScriptBundler() {}

  /**
   * What bundling produced.
   *
   * @param scripts the bundles; {@link Scripts#NONE} when there are errors
   * @param entries per script file: its module format and exports (for {@code #export} checks)
   * @param diagnostics errors and warnings, positioned in the sources
   */
  public record Result(Scripts scripts, Map<String, Entry> entries, List<Diagnostic> diagnostics) {
    public boolean hasErrors() {
      return diagnostics.stream().anyMatch(Diagnostic::isError);
    }
  }

  /**
   * A bundled script file.
   *
   * @param esModule whether the file is an ES module (its exports are known); a CommonJS file
   *     assigns {@code module.exports} at run time
   * @param exports the names it exports, {@code default} included
   */
  public record Entry(boolean esModule, Set<String> exports) {}

  /**
   * Bundles the script files {@code paths} (relative to {@code projectDirectory}).
   *
   * <p>An esbuild that cannot run here is reported as the diagnostic {@code bundler-unavailable}.
   */
  public static Result bundle(Path projectDirectory, Collection<String> paths) {
    List<String> entries = paths.stream().distinct().sorted().toList();
    if (entries.isEmpty()) {
      return new Result(Scripts.NONE, Map.of(), List.of());
    }
    Path work = null;
    try {
      work = Files.createTempDirectory("svc-bundle");
      return new Run(projectDirectory.toAbsolutePath().normalize(), work, entries).bundle();
    } catch (Esbuild.UnavailableException e) {
      return failed(
          Diagnostic.error("bundler-unavailable", Origin.ofFile(entries.getFirst()), e.getMessage())
              .withHint("run svc on linux-x64, or report your platform to the svc maintainers"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot bundle scripts", e);
    } finally {
      deleteTree(work);
    }
  }

  private static Result failed(Diagnostic... diagnostics) {
    return new Result(Scripts.NONE, Map.of(), List.of(diagnostics));
  }

  /** One bundling: the state shared by the three esbuild runs. */
  private static final class Run {
    private final Path project;
    private final Path work;
    private final List<String> entries;
    private final List<Diagnostic> diagnostics = new ArrayList<>();

    Run(Path project, Path work, List<String> entries) {
      this.project = project;
      this.work = work;
      this.entries = entries;
    }

    Result bundle() throws IOException {
      Path meta = work.resolve("meta.json");
      List<String> args = new ArrayList<>(entries);
      args.addAll(COMMON);
      args.addAll(
          List.of(
              "--bundle",
              "--format=esm",
              "--packages=external",
              "--log-level=warning",
              "--outbase=.",
              "--outdir=" + work.resolve("esm"),
              "--metafile=" + meta));
      Esbuild.Result esm = Esbuild.run(project, args, Optional.empty());
      report(esm, Optional.empty());
      if (esm.exitCode() != 0 || hasErrors()) {
        return new Result(Scripts.NONE, Map.of(), diagnostics);
      }
      JsonNode metafile = JSON.readTree(Files.readString(meta));
      Map<String, Path> outputs = new TreeMap<>();
      Map<String, Entry> exports = new TreeMap<>();
      for (Map.Entry<String, JsonNode> output : metafile.path("outputs").properties()) {
        String entry = output.getValue().path("entryPoint").asString("");
        if (entries.contains(entry)) {
          outputs.put(entry, project.resolve(output.getKey()).normalize());
          Set<String> names = new TreeSet<>();
          output.getValue().path("exports").forEach(n -> names.add(n.asString()));
          String format = metafile.path("inputs").path(entry).path("format").asString("");
          exports.put(entry, new Entry(!format.equals("cjs"), names));
        }
      }
      List<ScriptBundle> bundles = commonJs(outputs, exports);
      if (hasErrors()) {
        return new Result(Scripts.NONE, exports, diagnostics);
      }
      Optional<String> vendor = vendor(packageImports(metafile));
      if (hasErrors()) {
        return new Result(Scripts.NONE, exports, diagnostics);
      }
      return new Result(new Scripts(bundles, vendor), exports, diagnostics);
    }

    /** Run 2: each ESM output to CommonJS, in a directory no {@code "type": "module"} covers. */
    private List<ScriptBundle> commonJs(Map<String, Path> outputs, Map<String, Entry> formats)
        throws IOException {
      Path esmDir = work.resolve("esm");
      Files.writeString(work.resolve("package.json"), "{\"type\": \"commonjs\"}\n");
      List<String> args = new ArrayList<>();
      for (Path output : outputs.values()) {
        args.add(work.relativize(output).toString());
      }
      args.addAll(COMMON);
      args.addAll(
          List.of(
              "--format=cjs",
              "--log-level=error",
              "--outbase=" + work.relativize(esmDir),
              "--outdir=cjs"));
      Esbuild.Result cjs = Esbuild.run(work, args, Optional.empty());
      if (cjs.exitCode() != 0) {
        Map<String, String> entryOf = new TreeMap<>();
        outputs.forEach((entry, output) ->
            entryOf.put(work.relativize(output).toString().replace('\\', '/'), entry));
        for (EsbuildMessages.Message message : EsbuildMessages.parse(cjs.stderr())) {
          if (!message.isError()) {
            continue;
          }
          String entry =
              message.location().map(l -> entryOf.get(l.file())).orElse(entries.getFirst());
          boolean topLevelAwait = message.text().startsWith("Top-level await");
          diagnostics.add(
              Diagnostic.error(
                      "script-syntax",
                      Origin.ofFile(entry == null ? entries.getFirst() : entry),
                      topLevelAwait
                          ? "top-level await is not supported: a script's top level runs"
                              + " synchronously at the start of every call"
                          : lowerFirst(message.text()))
                  .withHint(
                      topLevelAwait
                          ? "move the await into the exported function"
                          : "report this to the svc maintainers: esbuild rejected its own output"));
        }
        if (!hasErrors()) {
          diagnostics.add(
              Diagnostic.error(
                  "script-bundle",
                  Origin.ofFile(entries.getFirst()),
                  "esbuild failed: " + firstLine(cjs.stderr())));
        }
        return List.of();
      }
      List<ScriptBundle> bundles = new ArrayList<>();
      for (Map.Entry<String, Path> output : outputs.entrySet()) {
        Path converted = work.resolve("cjs").resolve(esmDir.relativize(output.getValue()));
        // an ES module is strict code; CommonJS output would otherwise run sloppy
        String strict = formats.get(output.getKey()).esModule() ? "\"use strict\";\n" : "";
        bundles.add(
            new ScriptBundle(
                output.getKey(), strict + CommonJsExports.lighten(Files.readString(converted))));
      }
      return bundles;
    }

    /**
     * Package name (as imported) → the source files importing it, from run 1's metafile. Only
     * imports that survive in an output count: TypeScript drops imports used only as types.
     */
    private SortedMap<String, SortedSet<String>> packageImports(JsonNode metafile) {
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

    /** Run 3: the vendor bundle of every imported package; empty when none is imported. */
    private Optional<String> vendor(SortedMap<String, SortedSet<String>> imports) {
      List<String> packages = new ArrayList<>();
      for (Map.Entry<String, SortedSet<String>> entry : imports.entrySet()) {
        String specifier = entry.getKey();
        if (isHostModule(specifier)) {
          for (String file : entry.getValue()) {
            diagnostics.add(
                Diagnostic.error(
                        "host-module",
                        importOrigin(file, specifier),
                        "`"
                            + file
                            + "` imports `"
                            + specifier
                            + "`, a Node.js module; scripts run in a sandbox without Node's"
                            + " modules")
                    .withHint(
                        "use fetch for HTTP; file system, process and network modules are not"
                            + " available"));
          }
        } else {
          packages.add(specifier);
        }
      }
      if (packages.isEmpty()) {
        return Optional.empty();
      }
      if (!Files.isRegularFile(project.resolve("package.json"))) {
        for (String specifier : packages) {
          for (String file : imports.get(specifier)) {
            diagnostics.add(
                Diagnostic.error(
                        "missing-package",
                        importOrigin(file, specifier),
                        "`"
                            + file
                            + "` imports the npm package `"
                            + packageName(specifier)
                            + "`, but the project has no package.json")
                    .withHint(
                        "add package.json at the project root (`npm init -y`) and run `npm install "
                            + packageName(specifier)
                            + "`"));
          }
        }
        return Optional.empty();
      }
      StringBuilder entry = new StringBuilder();
      for (int i = 0; i < packages.size(); i++) {
        entry
            .append("import * as p")
            .append(i)
            .append(" from ")
            .append(JSON.writeValueAsString(packages.get(i)))
            .append(";\n");
      }
      entry.append(
          """
          const mark = (ns) => {
            const m = Object.create(null);
            for (const k of Object.keys(ns)) Object.defineProperty(m, k, { enumerable: true, get: () => ns[k] });
            return Object.defineProperty(m, "__esModule", { value: true });
          };
          export const packages = {
          """);
      for (int i = 0; i < packages.size(); i++) {
        entry
            .append("  ")
            .append(JSON.writeValueAsString(packages.get(i)))
            .append(": mark(p")
            .append(i)
            .append("),\n");
      }
      entry.append("};\n");
      List<String> args = new ArrayList<>(COMMON);
      args.addAll(
          List.of(
              "--bundle",
              "--format=cjs",
              "--main-fields=module,main",
              // what packages commonly read at load time from Node's globals
              "--define:process.env.NODE_ENV=\"production\"",
              "--define:global=globalThis",
              "--log-level=error",
              "--sourcefile=" + VENDOR_ENTRY));
      Esbuild.Result vendor = Esbuild.run(project, args, Optional.of(entry.toString()));
      report(vendor, Optional.of(new VendorContext(packages, imports)));
      if (vendor.exitCode() != 0 && !hasErrors()) {
        diagnostics.add(
            Diagnostic.error(
                "unsupported-package",
                Origin.ofFile("package.json"),
                "bundling the npm packages failed: " + firstLine(vendor.stderr())));
      }
      return vendor.exitCode() == 0 ? Optional.of(vendor.stdout()) : Optional.empty();
    }

    /** The imports of the generated vendor entry: line {@code i + 1} imports package {@code i}. */
    private record VendorContext(
        List<String> packages, SortedMap<String, SortedSet<String>> imports) {}

    private void report(Esbuild.Result result, Optional<VendorContext> vendor) {
      for (EsbuildMessages.Message message : EsbuildMessages.parse(result.stderr())) {
        Optional<EsbuildMessages.Location> at = message.location();
        boolean inVendorEntry = at.map(l -> l.file().equals(VENDOR_ENTRY)).orElse(false);
        if (vendor.isPresent() && inVendorEntry) {
          missingPackage(message, at.get(), vendor.get());
        } else if (vendor.isPresent()) {
          if (message.isError()) {
            diagnostics.add(
                Diagnostic.error(
                        "unsupported-package",
                        at.map(this::origin).orElse(Origin.ofFile("package.json")),
                        "an npm package cannot be bundled: " + lowerFirst(message.text()))
                    .withHint(
                        message.notes().isEmpty()
                            ? "scripts run in a sandbox without Node's modules"
                            : message.notes().getFirst()));
          }
        } else {
          diagnostics.add(sourceDiagnostic(message));
        }
      }
      if (result.exitCode() != 0 && !hasErrors() && vendor.isEmpty()) {
        diagnostics.add(
            Diagnostic.error(
                "script-bundle",
                Origin.ofFile(entries.getFirst()),
                "esbuild failed: " + firstLine(result.stderr())));
      }
    }

    private void missingPackage(
        EsbuildMessages.Message message, EsbuildMessages.Location at, VendorContext vendor) {
      int index = at.line() - 1;
      if (index < 0 || index >= vendor.packages().size()) {
        diagnostics.add(
            Diagnostic.error(
                "unsupported-package",
                Origin.ofFile("package.json"),
                "bundling the npm packages failed: " + lowerFirst(message.text())));
        return;
      }
      String specifier = vendor.packages().get(index);
      String name = packageName(specifier);
      boolean declared = declaredDependency(name);
      for (String file : vendor.imports().get(specifier)) {
        diagnostics.add(
            Diagnostic.error(
                    "missing-package",
                    importOrigin(file, specifier),
                    "`"
                        + file
                        + "` imports the npm package `"
                        + specifier
                        + "`, which is not installed in node_modules")
                .withHint(
                    declared
                        ? "run `npm install` in the project directory"
                        : "run `npm install " + name + "` in the project directory"));
      }
    }

    private Diagnostic sourceDiagnostic(EsbuildMessages.Message message) {
      Origin origin =
          message.location().map(this::origin).orElse(Origin.ofFile(entries.getFirst()));
      String text = lowerFirst(message.text());
      if (!message.isError()) {
        return Diagnostic.warning("script-warning", origin, text);
      }
      boolean resolution =
          message.text().startsWith("Could not resolve")
              || message.text().startsWith("No matching export");
      Diagnostic diagnostic =
          Diagnostic.error(resolution ? "unresolved-import" : "script-syntax", origin, text);
      if (resolution && message.text().startsWith("Could not resolve")) {
        return diagnostic.withHint(
            "paths start at the importing file's folder; TypeScript files may be imported without"
                + " their extension");
      }
      return message.notes().isEmpty()
          ? diagnostic
          : diagnostic.withHint(message.notes().getFirst());
    }

    /** esbuild's location as an origin: 1-based column counted in characters, not bytes. */
    private Origin origin(EsbuildMessages.Location at) {
      String file = at.file().replace('\\', '/');
      int column = at.byteColumn() + 1;
      try {
        Path path = project.resolve(file);
        if (Files.isRegularFile(path)) {
          List<String> lines = Files.readAllLines(path, StandardCharsets.UTF_8);
          if (at.line() >= 1 && at.line() <= lines.size()) {
            byte[] bytes = lines.get(at.line() - 1).getBytes(StandardCharsets.UTF_8);
            int length = Math.min(at.byteColumn(), bytes.length);
            column = new String(bytes, 0, length, StandardCharsets.UTF_8).length() + 1;
          }
        }
      } catch (IOException | UncheckedIOException e) {
        // keep the byte column: a position slightly off beats no diagnostic
      }
      return new Origin(file, at.line(), column);
    }

    /** Where {@code file} names {@code specifier} in quotes, else the file as a whole. */
    private Origin importOrigin(String file, String specifier) {
      try {
        List<String> lines = Files.readAllLines(project.resolve(file), StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
          for (char quote : new char[] {'"', '\'', '`'}) {
            int at = lines.get(i).indexOf(quote + specifier + quote);
            if (at >= 0) {
              return new Origin(file, i + 1, at + 1);
            }
          }
        }
      } catch (IOException | UncheckedIOException e) {
        // fall through: the file as a whole
      }
      return Origin.ofFile(file);
    }

    private boolean declaredDependency(String name) {
      try {
        JsonNode manifest = JSON.readTree(Files.readString(project.resolve("package.json")));
        return Stream.of("dependencies", "devDependencies", "optionalDependencies")
            .anyMatch(field -> manifest.path(field).has(name));
      } catch (IOException | RuntimeException e) {
        return false;
      }
    }

    private boolean isHostModule(String specifier) {
      if (specifier.startsWith("node:")) {
        return true;
      }
      String name = packageName(specifier);
      return NODE_BUILTINS.contains(name)
          && !Files.isDirectory(project.resolve("node_modules").resolve(name));
    }

    private boolean hasErrors() {
      return diagnostics.stream().anyMatch(Diagnostic::isError);
    }
  }

  /** {@code @scope/name/sub} → {@code @scope/name}; {@code name/sub} → {@code name}. */
  static String packageName(String specifier) {
    String[] parts = specifier.split("/");
    if (specifier.startsWith("@") && parts.length >= 2) {
      return parts[0] + "/" + parts[1];
    }
    return parts[0];
  }

  private static String lowerFirst(String text) {
    if (text.length() > 1
        && Character.isUpperCase(text.charAt(0))
        && !Character.isUpperCase(text.charAt(1))) {
      return Character.toLowerCase(text.charAt(0)) + text.substring(1);
    }
    return text;
  }

  private static String firstLine(String text) {
    return text.strip().lines().findFirst().orElse("(no output)");
  }

  private static void deleteTree(Path root) {
    if (root == null) {
      return;
    }
    try (Stream<Path> files = Files.walk(root)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a temporary directory left behind is harmless
    }
  }
}
