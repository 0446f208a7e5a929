package dev.svc.cli;

import dev.svc.SvcException;
import dev.svc.script.CachedBinaries;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The Java runtime that goes into a container image: the JDK running svc reduced by {@code jlink}
 * to the modules svc needs ({@code runtime-modules.txt}, shared with {@code scripts/release.sh}).
 * Linking takes a minute, so the result is kept in the svc cache, keyed by the Java version and the
 * module list. When svc itself runs on a linked runtime (a release archive), that runtime is used
 * as it is: it holds the same modules and has no {@code jlink}.
 */
final class LinkedRuntime {
  private LinkedRuntime() {}

  static List<String> modules() {
    try (InputStream in = LinkedRuntime.class.getResourceAsStream("runtime-modules.txt")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8)
          .lines()
          .map(String::strip)
          .filter(line -> !line.isEmpty() && !line.startsWith("#"))
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The directory of the runtime for the image, linking it first when needed.
   *
   * @throws SvcException when there is neither a {@code jlink} nor a linked runtime to use
   */
  static Path locate(CliContext context) {
    Path javaHome = Path.of(System.getProperty("java.home"));
    Path jlink = javaHome.resolve("bin/jlink");
    if (!Files.isExecutable(jlink)) {
      if (hasModules(javaHome)) {
        return javaHome;
      }
      throw new SvcException(
          "svc build --image needs a JDK (with jlink) or svc's release runtime, and "
              + javaHome
              + " is neither (set SVC_JAVA_HOME to a JDK 25)");
    }
    List<String> modules = modules();
    String key =
        Runtime.version().toString().replaceAll("[^A-Za-z0-9.+-]", "_")
            + "-"
            + Installation.sha256(String.join(",", modules).getBytes(StandardCharsets.UTF_8))
                .substring(0, 12);
    Path target = CachedBinaries.cacheDirectory().resolve("runtime-" + key);
    if (Files.isExecutable(target.resolve("bin/java"))) {
      return target;
    }
    context.err().println("svc: linking a Java runtime with jlink (once; about a minute) ...");
    context.err().flush();
    Path partial =
        target.resolveSibling(target.getFileName() + ".partial-" + ProcessHandle.current().pid());
    try {
      Files.createDirectories(target.getParent());
      ArtifactLayout.deleteTree(partial);
      Process process =
          new ProcessBuilder(
                  jlink.toString(),
                  "--add-modules",
                  String.join(",", modules),
                  "--strip-debug",
                  "--no-man-pages",
                  "--no-header-files",
                  "--generate-cds-archive",
                  "--output",
                  partial.toString())
              .redirectErrorStream(true)
              .start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(600, TimeUnit.SECONDS) || process.exitValue() != 0) {
        process.destroyForcibly();
        ArtifactLayout.deleteTree(partial);
        throw new SvcException("jlink failed: " + output.strip());
      }
      try {
        Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException | FileAlreadyExistsException e) {
        ArtifactLayout.deleteTree(partial); // another build linked it meanwhile
      } catch (IOException e) {
        if (!Files.isExecutable(target.resolve("bin/java"))) {
          throw e;
        }
        ArtifactLayout.deleteTree(partial);
      }
      return target;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot link a Java runtime into " + target, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SvcException("interrupted while linking a Java runtime");
    }
  }

  /** Whether the runtime at {@code home} lists every module svc needs in its {@code release}. */
  private static boolean hasModules(Path home) {
    try {
      for (String line : Files.readAllLines(home.resolve("release"))) {
        if (line.startsWith("MODULES=")) {
          List<String> present =
              List.of(line.substring("MODULES=".length()).replace("\"", "").split(" "));
          return present.containsAll(modules());
        }
      }
      return false;
    } catch (IOException e) {
      return false;
    }
  }
}
