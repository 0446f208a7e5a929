package dev.svc.script;

import com.caoccao.javet.exceptions.JavetException;
import com.caoccao.javet.interop.V8Host;
import com.caoccao.javet.interop.V8Runtime;
import com.caoccao.javet.interop.callback.JavetCallbackContext;
import com.caoccao.javet.values.reference.V8ValueObject;
import dev.svc.diagnostic.Diagnostic;
import dev.svc.diagnostic.Origin;
import dev.svc.json.Jackson;
import dev.svc.log.Log;
import dev.svc.log.StartupTrace;
import dev.svc.model.Model;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Type-checks the scripts of a compiled project with the TypeScript compiler, run in the V8 that
 * svc already has (no Node.js): the project's own {@code node_modules/typescript} when it is a 5.x,
 * else the one that ships in svc ({@value #BUNDLED_VERSION}). The compiler sees a virtual file
 * system: the project's script and declaration files, its {@code node_modules} type declarations,
 * the generated {@link TypeDeclarations} and TypeScript's lib files, nothing else.
 *
 * <p>Each script is checked as its importers see it, and each export a tool uses against the
 * function type of its role ({@code Svc.Handler<"tool">}, …), so a handler whose payload type names
 * an input the tool does not have is an error at the export. Errors are the diagnostic {@code
 * type-error} at their file, line and column, the TypeScript code in the message.
 */
public final class TypeChecker {
  /** {@code typescript.version} in pom.xml: the jar's resources are under this version. */
  public static final String BUNDLED_VERSION = "5.9.3";

  public static final String CODE = "type-error";

  /** Where the compiler sees the project's files, its lib files, and the generated declarations. */
  static final String ROOT = "/project/";

  static final String LIB = "/lib/";
  static final String TYPES = ROOT + TypeDeclarations.DIRECTORY + "/";
  static final String CHECKS = TYPES + "exports.ts";
  private static final List<String> LIBS = List.of("lib.es2023.d.ts");
  private static final String CHECKER = "dev/svc/script/typecheck.js";

  /** How much V8 heap a check may grow to, and how long it may take. */
  private static final long MAX_HEAP_BYTES = 1024L * 1024 * 1024;

  private static final long TIMEOUT_SECONDS = 120;

  private static final Log LOG = Log.tagged("script");

  private TypeChecker() {}

  /** Which TypeScript compiler checks a project, and where its lib files are. */
  record Compiler(String version, Optional<Path> ownSource, Optional<Path> libDirectory) {
    /** The compiler's JavaScript, read when it is to run (9 MB: a reused check never reads it). */
    String source() {
      if (ownSource.isEmpty()) {
        return BundledTypeScript.source();
      }
      try {
        return Files.readString(ownSource.get());
      } catch (IOException e) {
        throw new TypeCheckFailedException(
            "cannot read " + ownSource.get() + ": " + e.getMessage());
      }
    }

    /** Names this compiler's code: {@code bundled}, or the project's own file, size and time. */
    String identity() {
      if (ownSource.isEmpty()) {
        return "bundled";
      }
      try {
        return CheckResults.sha256(
                ownSource.get()
                    + "\n"
                    + Files.size(ownSource.get())
                    + "\n"
                    + Files.getLastModifiedTime(ownSource.get()).toMillis())
            .substring(0, 16);
      } catch (IOException e) {
        return "unreadable";
      }
    }
  }

  /** The diagnostics of type-checking {@code model}'s scripts; none when it has no scripts. */
  public static List<Diagnostic> check(Path projectDirectory, Model model) {
    List<TypeDeclarations.Use> uses = TypeDeclarations.uses(model);
    if (uses.stream().noneMatch(u -> TypeDeclarations.isTypeScript(u.script().path()))) {
      return List.of(); // JavaScript is not type-checked
    }
    Path project = projectDirectory.toAbsolutePath().normalize();
    Compiler compiler = compiler(project);
    String declarations = TypeDeclarations.of(model);
    Checks checks = checks(uses);
    List<String> roots = roots(uses);
    String key =
        CheckResults.sha256(
            String.join(
                "\n",
                compiler.version(),
                compiler.identity(),
                svcBuild(),
                BundledTypeScript.resource(CHECKER),
                String.join(",", LIBS),
                String.join(",", roots)));
    CompilerFiles replay =
        new CompilerFiles(project, compiler, declarations, checks, Optional.empty());
    Optional<List<Diagnostic>> reused =
        CheckResults.reusable(project, key, replay::probe).flatMap(TypeChecker::parsed);
    if (reused.isPresent()) {
      return reused.get();
    }
    CheckResults.Reads reads = new CheckResults.Reads();
    CompilerFiles files =
        new CompilerFiles(project, compiler, declarations, checks, Optional.of(reads));
    try {
      String answer = run(compiler, files, roots);
      CheckResults.store(project, key, reads, answer);
      return diagnostics(Jackson.MAPPER.readTree(answer)).stream().sorted().toList();
    } catch (TypeCheckFailedException e) {
      return List.of(
          Diagnostic.error(CODE, Origin.ofFile(uses.getFirst().script().path()), e.getMessage())
              .withHint(
                  "fix or split the script, or skip type checking with `svc validate"
                      + " --no-type-check`"));
    }
  }

  /**
   * Which svc made a stored result: its jar's size and time (a rebuilt or upgraded svc may read the
   * same files differently, so its results are not reused).
   */
  private static String svcBuild() {
    try {
      Path jar =
          Path.of(TypeChecker.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      return jar + " " + Files.size(jar) + " " + Files.getLastModifiedTime(jar).toMillis();
    } catch (IOException | RuntimeException | java.net.URISyntaxException e) {
      return "unknown " + System.nanoTime(); // nothing is reused
    }
  }

  /** The compiler: the project's own TypeScript 5.x when it has one, else svc's. */
  static Compiler compiler(Path project) {
    Path own = project.resolve("node_modules/typescript");
    Path packageJson = own.resolve("package.json");
    Path source = own.resolve("lib/typescript.js");
    if (Files.isRegularFile(packageJson) && Files.isRegularFile(source)) {
      try {
        JsonNode meta = Jackson.MAPPER.readTree(Files.readString(packageJson));
        String version = meta.path("version").asString("");
        if (version.startsWith("5.")) {
          return new Compiler(version, Optional.of(source), Optional.of(own.resolve("lib")));
        }
      } catch (IOException | RuntimeException e) {
        // an unreadable package: svc's own compiler checks instead
      }
    }
    return new Compiler(BUNDLED_VERSION, Optional.empty(), Optional.empty());
  }

  private static List<String> roots(List<TypeDeclarations.Use> uses) {
    List<String> roots = new ArrayList<>();
    roots.add(TYPES + TypeDeclarations.SANDBOX_FILE);
    roots.add(TYPES + TypeDeclarations.PROJECT_FILE);
    uses.stream().map(u -> ROOT + u.script().path()).distinct().forEach(roots::add);
    roots.add(CHECKS);
    return roots;
  }

  /** One line per TypeScript export used: it is assigned to the function type of its role. */
  private static Checks checks(List<TypeDeclarations.Use> uses) {
    StringBuilder text = new StringBuilder("export {};\n");
    Map<Integer, TypeDeclarations.Use> lines = new LinkedHashMap<>();
    int line = 2;
    int n = 0;
    for (TypeDeclarations.Use use : uses) {
      String path = use.script().path();
      if (!TypeDeclarations.isTypeScript(path)) {
        continue; // JavaScript is not type-checked
      }
      String module =
          TypeDeclarations.quote(TypeDeclarations.moduleFrom(TypeDeclarations.DIRECTORY, path));
      text.append("import * as s")
          .append(n)
          .append(" from ")
          .append(module)
          .append("; const c")
          .append(n)
          .append(": ")
          .append(use.type())
          .append(" = s")
          .append(n)
          .append("[")
          .append(TypeDeclarations.quote(use.script().exportName()))
          .append("];\n");
      lines.put(line, use);
      line++;
      n++;
    }
    return new Checks(text.toString(), lines);
  }

  record Checks(String text, Map<Integer, TypeDeclarations.Use> lines) {}

  /** How many times the compiler ran in this process: for tests of {@link CheckResults}. */
  static final AtomicInteger RUNS = new AtomicInteger();

  /** Runs the compiler; returns its answer, the diagnostics as JSON. */
  private static String run(Compiler compiler, CompilerFiles files, List<String> roots) {
    RUNS.incrementAndGet();
    AtomicReference<String> failure = new AtomicReference<>();
    ScheduledExecutorService timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> Thread.ofPlatform().daemon().name("svc-type-check-timeout").unstarted(r));
    List<JavetCallbackContext> callbacks = new ArrayList<>();
    V8Runtime runtime = null;
    CompilerCode code = null;
    try {
      V8Host host = V8Engine.sharedHost();
      runtime = host.createV8Runtime();
      V8Runtime checking = runtime;
      runtime.setNearHeapLimitCallback((current, initial) -> {
        if (current * 2 <= MAX_HEAP_BYTES) {
          return current * 2;
        }
        failure.compareAndSet(
            null,
            "type checking needed more than "
                + MAX_HEAP_BYTES / (1024 * 1024)
                + " MiB of memory and was stopped");
        checking.terminateExecution();
        return current + 64L * 1024 * 1024;
      });
      timer.schedule(
          () -> {
            failure.compareAndSet(
                null, "type checking took longer than " + TIMEOUT_SECONDS + " s and was stopped");
            checking.terminateExecution();
          },
          TIMEOUT_SECONDS,
          TimeUnit.SECONDS);
      try (V8ValueObject global = runtime.getGlobalObject();
          V8ValueObject svcFiles = runtime.createV8ValueObject()) {
        callbacks.addAll(svcFiles.bind(files));
        global.set("svcFiles", svcFiles);
      }
      StartupTrace.mark("type check: V8 runtime ready");
      long started = System.nanoTime();
      code = CompilerCode.load(runtime, compiler);
      long loaded = System.nanoTime();
      StartupTrace.mark("type check: TypeScript " + compiler.version() + " loaded");
      runtime
          .getExecutor(BundledTypeScript.resource(CHECKER))
          .setResourceName("svc:typecheck.js")
          .executeVoid();
      String answer;
      try (V8ValueObject global = runtime.getGlobalObject()) {
        answer = global.invokeString("svcCheck", request(files, roots));
      }
      StartupTrace.mark("type check: checked");
      code.save();
      LOG.debug(
          "scripts type-checked",
          "typescript",
          compiler.version(),
          "load_ms",
          (loaded - started) / 1_000_000,
          "check_ms",
          (System.nanoTime() - loaded) / 1_000_000);
      return answer;
    } catch (JavetException | RuntimeException e) {
      String why = files.stopped().orElse(failure.get());
      if (why != null) {
        throw new TypeCheckFailedException(why);
      }
      if (e instanceof ScriptEngineException engine) {
        throw new TypeCheckFailedException("type checking needs V8: " + engine.getMessage());
      }
      throw new TypeCheckFailedException(
          "the TypeScript compiler " + compiler.version() + " failed: " + e.getMessage());
    } finally {
      timer.shutdownNow();
      if (code != null) {
        code.close();
      }
      close(runtime, callbacks);
    }
  }

  private static String request(CompilerFiles files, List<String> roots) {
    ObjectNode request = Jackson.MAPPER.createObjectNode();
    ArrayNode rootNodes = request.putArray("roots");
    roots.forEach(rootNodes::add);
    ArrayNode libs = request.putArray("libs");
    LIBS.forEach(libs::add);
    ArrayNode checks = request.putArray("checks");
    files
        .checks()
        .lines()
        .forEach((line, use) -> {
          ObjectNode check = checks.addObject();
          check.put("line", line);
          check.put("file", ROOT + use.script().path());
          check.put("name", use.script().exportName());
          check.put("role", use.role());
        });
    request.put("checksFile", CHECKS);
    return Jackson.MAPPER.writeValueAsString(request);
  }

  private static void close(V8Runtime runtime, List<JavetCallbackContext> callbacks) {
    if (runtime == null) {
      return;
    }
    for (JavetCallbackContext context : callbacks) {
      runtime.removeCallbackContext(context.getHandle());
    }
    try {
      runtime.close();
    } catch (JavetException | RuntimeException e) {
      LOG.debug("closing the type checker's V8 runtime failed", "error", e.toString());
    }
  }

  /** The diagnostics of a kept answer; empty when it cannot be read (the check runs again). */
  private static Optional<List<Diagnostic>> parsed(String answer) {
    try {
      return Optional.of(diagnostics(Jackson.MAPPER.readTree(answer)).stream().sorted().toList());
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  private static List<Diagnostic> diagnostics(JsonNode found) {
    List<Diagnostic> diagnostics = new ArrayList<>();
    for (JsonNode d : found) {
      String file = d.path("file").asString("");
      String relative = file.startsWith(ROOT) ? file.substring(ROOT.length()) : file;
      Origin origin =
          relative.isEmpty()
              ? Origin.ofFile(TypeDeclarations.DIRECTORY + "/" + TypeDeclarations.PROJECT_FILE)
              : new Origin(relative, d.path("line").asInt(0), d.path("column").asInt(0));
      String message = "TS" + d.path("code").asInt() + ": " + d.path("message").asString("");
      diagnostics.add(
          d.path("category").asString("").equals("error")
              ? Diagnostic.error(CODE, origin, message)
              : Diagnostic.warning(CODE, origin, message));
    }
    return diagnostics;
  }
}
