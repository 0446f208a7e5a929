package dev.svc.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.SvcProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Runs the official MCP server conformance suite ({@code @modelcontextprotocol/conformance})
 * against {@code svc start examples/conformance}, run from the built jar as its own process, in two
 * versions: 0.1.16, and 0.2.0-alpha.12 once per protocol revision (every scenario of 2025-11-25 on
 * the session wire, every one of 2026-07-28 statelessly, so a scenario of both revisions runs
 * twice). Scenarios svc does not pass are listed, with reasons, in {@code
 * examples/conformance/expected-failures-<version>.yml}; a run fails when another scenario fails
 * and when a listed one starts passing. docs/conformance.md explains each listed scenario.
 */
class ConformanceIT {
  static final Path EXAMPLE = Path.of("examples/conformance").toAbsolutePath();

  private static SvcProcess svc;
  private static String url;

  @BeforeAll
  static void serveTheConformanceExample() throws Exception {
    // the project is served the way users serve it: `svc start examples/conformance`
    svc =
        SvcProcess.serving(
            EXAMPLE,
            Files.createTempDirectory("conformance-svc"),
            Map.of(),
            "start",
            EXAMPLE.toString(),
            "-p",
            "0");
    // the suite's DNS-rebinding scenario needs a localhost URL
    url = svc.baseUrl().replace("127.0.0.1", "localhost") + "/mcp";
  }

  @AfterAll
  static void stop() {
    if (svc != null) {
      svc.close();
    }
  }

  @Test
  void version0116PassesExceptTheListedScenarios() throws Exception {
    passes(ConformanceSuite.installed("0.1.16").run("0.1.16", url, expected("0.1.16")));
  }

  @Test
  void version020Alpha12PassesEveryScenarioOfRevision20251125OnTheSessionWireExceptTheListedOnes()
      throws Exception {
    passes(
        ConformanceSuite.installed("0.2.0-alpha.12")
            .run(
                "0.2.0-alpha.12 at 2025-11-25",
                url,
                expected("0.2.0-alpha.12-2025-11-25"),
                "--suite",
                "all",
                "--spec-version",
                "2025-11-25"));
  }

  @Test
  void version020Alpha12PassesEveryScenarioOfRevision20260728StatelesslyExceptTheListedOnes()
      throws Exception {
    passes(
        ConformanceSuite.installed("0.2.0-alpha.12")
            .run(
                "0.2.0-alpha.12 at 2026-07-28",
                url,
                expected("0.2.0-alpha.12-2026-07-28"),
                "--suite",
                "all",
                "--spec-version",
                "2026-07-28"));
  }

  private static Path expected(String name) {
    return EXAMPLE.resolve("expected-failures-" + name + ".yml");
  }

  private static void passes(ConformanceSuite.Run run) {
    System.out.println(run.summary());
    assertThat(svc.alive()).as("svc still serving after " + run.label()).isTrue();
    assertThat(run.exitCode()).as(run.summary()).isZero();
  }
}
