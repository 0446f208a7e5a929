package dev.svc.script;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Runs the esbuild binary that ships in the {@code org.mvnpm.at.esbuild:linux-x64} jar, so that
 * bundling TypeScript needs neither Node nor a network. The binary is copied to the svc cache the
 * first time a project has scripts ({@link CachedBinaries}); projects without scripts never touch
 * it.
 */
final class Esbuild {
  static final String VERSION = "0.25.10";
  private static final String RESOURCE =
      "META-INF/resources/_static/linux-x64/" + VERSION + "/bin/esbuild";
  private static final long TIMEOUT_SECONDS = 120;

  private static volatile Path binary;

  private Esbuild() {}

  /** What one run printed. */
  record Result(int exitCode, String stdout, String stderr) {}

  /** esbuild cannot run on this machine. */
  static final class UnavailableException extends dev.svc.SvcException {
    UnavailableException(String message) {
      super(message);
    }
  }

  /**
   * Runs {@code esbuild args...} in {@code directory}, with {@code stdin} as its standard input.
   *
   * @throws UnavailableException when this platform has no esbuild binary or it cannot start
   */
  static Result run(Path directory, List<String> args, Optional<String> stdin) {
    List<String> command = new ArrayList<>();
    command.add(binary().toString());
    command.addAll(args);
    Process process;
    try {
      process = new ProcessBuilder(command).directory(directory.toFile()).start();
    } catch (IOException e) {
      throw new UnavailableException("cannot start esbuild: " + e.getMessage());
    }
    try (ExecutorService readers = Executors.newVirtualThreadPerTaskExecutor()) {
      Future<String> out = readers.submit(() -> read(process.getInputStream()));
      Future<String> err = readers.submit(() -> read(process.getErrorStream()));
      try (OutputStream in = process.getOutputStream()) {
        if (stdin.isPresent()) {
          in.write(stdin.get().getBytes(StandardCharsets.UTF_8));
        }
      }
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new UnavailableException("esbuild did not finish in " + TIMEOUT_SECONDS + " s");
      }
      return new Result(process.exitValue(), out.get(), err.get());
    } catch (IOException e) {
      throw new UncheckedIOException("talking to esbuild failed", e);
    } catch (ExecutionException e) {
      throw new UncheckedIOException("reading esbuild's output failed", (IOException) e.getCause());
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new UnavailableException("interrupted while esbuild ran");
    }
  }

  private static String read(InputStream stream) throws IOException {
    return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
  }

  private static Path binary() {
    Path known = binary;
    if (known != null) {
      return known;
    }
    synchronized (Esbuild.class) {
      if (binary == null) {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch");
        if (!os.contains("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
          throw new UnavailableException(
              "svc bundles TypeScript with esbuild, which this build of svc ships for linux-x64"
                  + " only (this is "
                  + os
                  + "/"
                  + arch
                  + ")");
        }
        try {
          binary = CachedBinaries.extract(RESOURCE, "esbuild-" + VERSION, "esbuild", true);
        } catch (UncheckedIOException | IllegalStateException e) {
          throw new UnavailableException(e.getMessage());
        }
      }
      return binary;
    }
  }
}
