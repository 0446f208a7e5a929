package dev.svc.script;

import com.caoccao.javet.annotations.V8Function;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The files the compiler may read, by their virtual paths: {@code /project/…} (files of the project
 * directory with a script, declaration or JSON extension, the generated declarations in memory) and
 * {@code /lib/…} (the compiler's lib files). Bound into V8 as {@code svcFiles}.
 */
public final class CompilerFiles {
  /** The largest file the compiler is handed, and the most it is handed in all. */
  private static final long MAX_FILE_BYTES = 4L * 1024 * 1024;

  private static final long MAX_TOTAL_BYTES = 64L * 1024 * 1024;

  private static final List<String> EXTENSIONS =
      List.of(".ts", ".mts", ".cts", ".tsx", ".js", ".mjs", ".cjs", ".json");

  private final Path project;
  private final TypeChecker.Compiler compiler;
  private final Map<String, String> generated = new HashMap<>();
  private final TypeChecker.Checks checks;
  private final Optional<CheckResults.Reads> reads;
  private long read;
  private volatile String stopped;

  CompilerFiles(
      Path project,
      TypeChecker.Compiler compiler,
      String declarations,
      TypeChecker.Checks checks,
      Optional<CheckResults.Reads> reads) {
    this.project = project;
    this.compiler = compiler;
    this.checks = checks;
    this.reads = reads;
    generated.put(TypeChecker.TYPES + TypeDeclarations.PROJECT_FILE, declarations);
    generated.put(TypeChecker.TYPES + TypeDeclarations.SANDBOX_FILE, TypeDeclarations.sandbox());
    generated.put(TypeChecker.CHECKS, checks.text());
  }

  /** Why the check was stopped: a file too large to hand to the compiler. */
  Optional<String> stopped() {
    return Optional.ofNullable(stopped);
  }

  /** The generated line per export used, and which use each line checks. */
  TypeChecker.Checks checks() {
    return checks;
  }

  /** The text of {@code name}, or null when there is no such file (or it may not be read). */
  @V8Function(name = "read")
  public String read(String name) {
    String text = text(name);
    // the bundled compiler's lib files are fixed by its version, which the check's key names
    if (!(name.startsWith(TypeChecker.LIB) && compiler.libDirectory().isEmpty())) {
      reads.ifPresent(r -> r.saw("file:" + name, text));
    }
    return text;
  }

  @V8Function(name = "isDirectory")
  public boolean isDirectory(String name) {
    boolean directory = directory(name);
    reads.ifPresent(r -> r.saw("directory:" + name, directory ? "yes" : null));
    return directory;
  }

  /** What a probe recorded by {@link CheckResults.Reads} gives now. */
  String probe(String probe) {
    if (probe.startsWith("file:")) {
      return text(probe.substring("file:".length()));
    }
    if (probe.startsWith("directory:")) {
      return directory(probe.substring("directory:".length())) ? "yes" : null;
    }
    return "?";
  }

  private String text(String name) {
    if (generated.containsKey(name)) {
      return generated.get(name);
    }
    if (name.startsWith(TypeChecker.LIB)) {
      return lib(name.substring(TypeChecker.LIB.length()));
    }
    return onDisk(name).map(this::readFile).orElse(null);
  }

  private boolean directory(String name) {
    if (name.equals("/project")
        || name.equals("/lib")
        || TypeChecker.TYPES.startsWith(name + "/")) {
      return true;
    }
    return inProject(name).map(Files::isDirectory).orElse(false);
  }

  private String lib(String name) {
    if (!name.matches("lib\\.[a-z0-9.]+\\.d\\.ts") && !name.equals("lib.d.ts")) {
      return null;
    }
    if (compiler.libDirectory().isPresent()) {
      return readFile(compiler.libDirectory().get().resolve(name));
    }
    return BundledTypeScript.libs().get(name);
  }

  private Optional<Path> inProject(String name) {
    if (!name.startsWith(TypeChecker.ROOT) || name.contains("\\")) {
      return Optional.empty();
    }
    Path file = project.resolve(name.substring(TypeChecker.ROOT.length())).normalize();
    return file.startsWith(project) ? Optional.of(file) : Optional.empty();
  }

  private Optional<Path> onDisk(String name) {
    return inProject(name)
        .filter(f -> EXTENSIONS.stream().anyMatch(f.getFileName().toString()::endsWith));
  }

  private String readFile(Path file) {
    try {
      if (!Files.isRegularFile(file)) {
        return null;
      }
      long size = Files.size(file);
      if (size > MAX_FILE_BYTES || read + size > MAX_TOTAL_BYTES) {
        stopped =
            project.relativize(file)
                + " is too large to type-check ("
                + size
                + " bytes; files up to "
                + MAX_FILE_BYTES / (1024 * 1024)
                + " MiB, "
                + MAX_TOTAL_BYTES / (1024 * 1024)
                + " MiB in all)";
        throw new TypeCheckFailedException(stopped);
      }
      read += size;
      // bytes that are not UTF-8 become U+FFFD: the compiler reports them where they are
      return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return null;
    }
  }
}
