package dev.svc.script;

import dev.svc.diagnostic.Diagnostic;
import dev.svc.diagnostic.Origin;
import dev.svc.json.Jackson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;

/**
 * The diagnostics of one bundling: esbuild's messages of each run, and the imports svc refuses
 * itself, positioned in the project's sources. esbuild reports a column as a byte offset; a
 * diagnostic counts characters, as editors do.
 */
final class BundleDiagnostics {
  private final Path project;
  private final String firstEntry;
  private final List<Diagnostic> diagnostics = new ArrayList<>();

  /**
   * @param project the project directory, which esbuild's file names are relative to
   * @param firstEntry the script file a problem without a position is reported at
   */
  BundleDiagnostics(Path project, String firstEntry) {
    this.project = project;
    this.firstEntry = firstEntry;
  }

  List<Diagnostic> all() {
    return diagnostics;
  }

  boolean hasErrors() {
    return diagnostics.stream().anyMatch(Diagnostic::isError);
  }

  /** Run 1 (the scripts themselves): syntax, resolution and warnings, at their position. */
  void sources(Esbuild.Result result) {
    for (EsbuildMessages.Message message : EsbuildMessages.parse(result.stderr())) {
      diagnostics.add(sourceDiagnostic(message));
    }
    bundleFailedUnlessReported(result);
  }

  /**
   * Run 2 (ES modules to CommonJS) failed: what esbuild refuses there is refused in the script it
   * came from, found by the converted file's name in {@code entryOf}.
   */
  void commonJs(Esbuild.Result result, Map<String, String> entryOf) {
    for (EsbuildMessages.Message message : EsbuildMessages.parse(result.stderr())) {
      if (!message.isError()) {
        continue;
      }
      String entry = message.location().map(l -> entryOf.get(l.file())).orElse(firstEntry);
      boolean topLevelAwait = message.text().startsWith("Top-level await");
      diagnostics.add(
          Diagnostic.error(
                  "script-syntax",
                  Origin.ofFile(entry == null ? firstEntry : entry),
                  topLevelAwait
                      ? "top-level await is not supported: a script's top level runs"
                          + " synchronously at the start of every call"
                      : lowerFirst(message.text()))
              .withHint(
                  topLevelAwait
                      ? "move the await into the exported function"
                      : "report this to the svc maintainers: esbuild rejected its own output"));
    }
    bundleFailedUnlessReported(result);
  }

  /**
   * Run 3 (the vendor bundle): a package that does not resolve is missing from {@code
   * node_modules}; an error inside a package means it cannot run in the sandbox.
   */
  void vendor(Esbuild.Result result, VendorEntry entry) {
    for (EsbuildMessages.Message message : EsbuildMessages.parse(result.stderr())) {
      Optional<EsbuildMessages.Location> at = message.location();
      if (at.isPresent() && at.get().file().equals(VendorEntry.NAME)) {
        notInstalled(message, at.get(), entry);
      } else if (message.isError()) {
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
    }
    if (result.exitCode() != 0 && !hasErrors()) {
      packagesFailed(firstLine(result.stderr()));
    }
  }

  /** {@code file} imports one of Node's modules, which the sandbox does not have. */
  void hostModule(String file, String specifier) {
    diagnostics.add(
        Diagnostic.error(
                "host-module",
                importOrigin(file, specifier),
                "`"
                    + file
                    + "` imports `"
                    + specifier
                    + "`, a Node.js module; scripts run in a sandbox without Node's modules")
            .withHint(
                "use fetch for HTTP; file system, process and network modules are not available"));
  }

  /** {@code file} imports an npm package, but the project has no {@code package.json}. */
  void noPackageJson(String file, String specifier) {
    String name = NpmImports.packageName(specifier);
    missingPackage(
        file,
        specifier,
        name + "`, but the project has no package.json",
        "add package.json at the project root (`npm init -y`) and run `npm install " + name + "`");
  }

  private void notInstalled(
      EsbuildMessages.Message message, EsbuildMessages.Location at, VendorEntry entry) {
    Optional<String> specifier = entry.packageAt(at.line());
    if (specifier.isEmpty()) {
      packagesFailed(lowerFirst(message.text()));
      return;
    }
    String name = NpmImports.packageName(specifier.get());
    String hint =
        declaredDependency(name)
            ? "run `npm install` in the project directory"
            : "run `npm install " + name + "` in the project directory";
    for (String file : entry.importers().get(specifier.get())) {
      missingPackage(
          file,
          specifier.get(),
          specifier.get() + "`, which is not installed in node_modules",
          hint);
    }
  }

  /** {@code `file` imports the npm package `<what>}: at the import. */
  private void missingPackage(String file, String specifier, String what, String hint) {
    diagnostics.add(
        Diagnostic.error(
                "missing-package",
                importOrigin(file, specifier),
                "`" + file + "` imports the npm package `" + what)
            .withHint(hint));
  }

  private void packagesFailed(String reason) {
    diagnostics.add(
        Diagnostic.error(
            "unsupported-package",
            Origin.ofFile("package.json"),
            "bundling the npm packages failed: " + reason));
  }

  /** A run that failed without a message svc understood still fails the bundling. */
  private void bundleFailedUnlessReported(Esbuild.Result result) {
    if (result.exitCode() != 0 && !hasErrors()) {
      diagnostics.add(
          Diagnostic.error(
              "script-bundle",
              Origin.ofFile(firstEntry),
              "esbuild failed: " + firstLine(result.stderr())));
    }
  }

  private Diagnostic sourceDiagnostic(EsbuildMessages.Message message) {
    Origin origin = message.location().map(this::origin).orElse(Origin.ofFile(firstEntry));
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
    return message.notes().isEmpty() ? diagnostic : diagnostic.withHint(message.notes().getFirst());
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

  /**
   * Whether the project's {@code package.json} lists {@code name} (so plain npm install fixes it).
   */
  private boolean declaredDependency(String name) {
    try {
      JsonNode manifest =
          Jackson.MAPPER.readTree(Files.readString(project.resolve("package.json")));
      return Stream.of("dependencies", "devDependencies", "optionalDependencies")
          .anyMatch(field -> manifest.path(field).has(name));
    } catch (IOException | RuntimeException e) {
      return false;
    }
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
}
