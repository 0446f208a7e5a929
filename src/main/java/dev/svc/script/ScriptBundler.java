package dev.svc.script;

import dev.svc.diagnostic.Diagnostic;
import dev.svc.diagnostic.Origin;
import dev.svc.json.Jackson;
import dev.svc.model.ScriptBundle;
import dev.svc.model.Scripts;
import java.io.IOException;
import java.io.UncheckedIOException;
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
 * same project always gives the same bundles. {@link BundleDiagnostics} turns what esbuild reports
 * into diagnostics; {@link NpmImports} and {@link VendorEntry} are the npm side of run 3.
 */
public final class ScriptBundler {
  private static final JsonMapper JSON = Jackson.MAPPER;

  private static final List<String> COMMON =
      List.of(
          "--platform=neutral",
          "--target=es2022",
          "--charset=utf8",
          "--color=false",
          "--log-limit=0");

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
      return new Result(
          Scripts.NONE,
          Map.of(),
          List.of(
              Diagnostic.error(
                      "bundler-unavailable", Origin.ofFile(entries.getFirst()), e.getMessage())
                  .withHint(
                      "run svc on linux-x64, or report your platform to the svc maintainers")));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot bundle scripts", e);
    } finally {
      deleteTree(work);
    }
  }

  /** One bundling: the state shared by the three esbuild runs. */
  private static final class Run {
    private final Path project;
    private final Path work;
    private final List<String> entries;
    private final BundleDiagnostics diagnostics;

    Run(Path project, Path work, List<String> entries) {
      this.project = project;
      this.work = work;
      this.entries = entries;
      this.diagnostics = new BundleDiagnostics(project, entries.getFirst());
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
              // paths as the project has them: a script reached through a link (a Kubernetes
              // ConfigMap volume is made of links) keeps the name its tool refers to it by
              "--preserve-symlinks",
              "--log-level=warning",
              "--outbase=.",
              "--outdir=" + work.resolve("esm"),
              "--metafile=" + meta));
      Esbuild.Result esm = Esbuild.run(project, args, Optional.empty());
      diagnostics.sources(esm);
      if (esm.exitCode() != 0 || diagnostics.hasErrors()) {
        return new Result(Scripts.NONE, Map.of(), diagnostics.all());
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
      if (diagnostics.hasErrors()) {
        return new Result(Scripts.NONE, exports, diagnostics.all());
      }
      Optional<String> vendor = vendor(NpmImports.read(metafile));
      if (diagnostics.hasErrors()) {
        return new Result(Scripts.NONE, exports, diagnostics.all());
      }
      return new Result(new Scripts(bundles, vendor), exports, diagnostics.all());
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
        diagnostics.commonJs(cjs, entryOf);
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

    /** Run 3: the vendor bundle of every imported package; empty when none is imported. */
    private Optional<String> vendor(SortedMap<String, SortedSet<String>> imports) {
      List<String> packages = new ArrayList<>();
      imports.forEach((specifier, files) -> {
        if (NpmImports.isHostModule(project, specifier)) {
          files.forEach(file -> diagnostics.hostModule(file, specifier));
        } else {
          packages.add(specifier);
        }
      });
      if (packages.isEmpty()) {
        return Optional.empty();
      }
      if (!Files.isRegularFile(project.resolve("package.json"))) {
        for (String specifier : packages) {
          imports.get(specifier).forEach(file -> diagnostics.noPackageJson(file, specifier));
        }
        return Optional.empty();
      }
      VendorEntry entry = new VendorEntry(packages, imports);
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
              "--sourcefile=" + VendorEntry.NAME));
      Esbuild.Result vendor = Esbuild.run(project, args, Optional.of(entry.source()));
      diagnostics.vendor(vendor, entry);
      return vendor.exitCode() == 0 ? Optional.of(vendor.stdout()) : Optional.empty();
    }
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
