package dev.svc.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Creates {@code lib/svc.aot}, the JDK's ahead-of-time cache (JEP 483/514), by a training run of
 * the built artifact: classes loaded and linked are stored so that {@code svc serve} starts in a
 * fraction of the time. Method profiles (JEP 515) are left out: they trade start-up for warm-up.
 * The run uses the artifact's own launcher flags (the cache is only used by a JVM configured the
 * same way).
 */
final class AotTraining {
  private AotTraining() {}

  /**
   * The JVM flags of {@code serve}, the same in the artifact's launcher and the container image's
   * entrypoint: the cache is only used by a JVM started with the flags it was trained with.
   */
  static final List<String> SERVE_FLAGS =
      List.of(
          "-XX:+UseSerialGC",
          // a 16 MiB young generation: ~30 quick young collections a second at 30k requests/s,
          // and 32 MB less resident than the 48 MiB before (bench/RESULTS.md, "Memory")
          "-Xms32m",
          "-Xmn16m",
          // a 512 MiB heap (half of a "machine" of 1 GiB) that -Xmx in JAVA_TOOL_OPTIONS can
          // change: an explicit -Xmx here would win over it, whichever order (docs/deploy.md)
          "-XX:MaxRAM=1g",
          "-XX:MaxRAMPercentage=50",
          "-XX:+ExitOnOutOfMemoryError",
          // gives the C library's freed memory back every second (the JIT's and V8's bursts)
          "-XX:TrimNativeHeapInterval=1000",
          // no JIT compilation may take more than 12 MB: the largest (the whole request path
          // inlined into one method) took 35 MB each while the hot paths compiled, the peak of
          // a process's memory; such a method runs as C1 code, at no cost measurable
          // (bench/RESULTS.md, "Memory, issue 24"). "quiet": the JVM prints nothing about it.
          "-XX:CompileCommand=quiet",
          "-XX:CompileCommand=MemLimit,*.*,12M",
          // C2 compiles a method after 3× the JVM's default counts: during start-up it would
          // take ~60 ms of CPU on the two cores start-up needs (docs/serving.md, "Start-up")
          "-XX:Tier4InvocationThreshold=15000",
          "-XX:Tier4MinInvocationThreshold=1800",
          "-XX:Tier4CompileThreshold=45000",
          "-XX:Tier4BackEdgeThreshold=120000",
          "-XX:-UsePerfData",
          "-Dorg.eclipse.jetty.util.referencesPerCacheLine=16",
          "-Djdk.console=java.base",
          "-Djava.locale.providers=HOST",
          "--enable-native-access=ALL-UNNAMED");

  static Optional<String> run(Path out, CliContext context) {
    return run(Path.of(System.getProperty("java.home"), "bin", "java"), out, context);
  }

  /** Trains {@code lib/svc.aot} in {@code out} with the {@code java} that will serve it. */
  static Optional<String> run(Path java, Path out, CliContext context) {
    List<String> command = new ArrayList<>();
    command.add(java.toString());
    // classes only, no method profiles (JEP 515): replaying the profiles makes the JIT compile
    // ~100 ms of CPU's worth of methods during start-up, on the two cores the start-up itself
    // needs (bench/RESULTS.md, "Start-up, issue 21"). A diagnostic flag, so a JDK without it must
    // not fail the build: unrecognised options are ignored here.
    command.add("-XX:+UnlockDiagnosticVMOptions");
    command.add("-XX:+IgnoreUnrecognizedVMOptions");
    command.add("-XX:-AOTRecordTraining");
    command.add("-XX:AOTCacheOutput=lib/svc.aot");
    command.addAll(SERVE_FLAGS);
    command.addAll(
        List.of(
            "-Dsvc.cwd=" + out,
            "-jar",
            "lib/svc.jar",
            "serve",
            ServeCommand.MODEL_FILE,
            "--train"));
    try {
      Process process =
          new ProcessBuilder(command).directory(out.toFile()).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes());
      if (!process.waitFor(180, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        context
            .err()
            .println(
                "svc: warning: the start-up training run did not finish; building without a cache");
        return Optional.empty();
      }
      if (process.exitValue() != 0 || !Files.isRegularFile(out.resolve("lib/svc.aot"))) {
        context.err().println("svc: warning: no start-up cache (the training run failed):");
        context.err().println(output.strip());
        return Optional.empty();
      }
      return Optional.of("lib/svc.aot");
    } catch (IOException e) {
      context.err().println("svc: warning: cannot run the start-up training: " + e.getMessage());
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }
}
