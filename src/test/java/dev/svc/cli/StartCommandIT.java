package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.testing.McpHttpClient;
import dev.svc.testing.ProjectFixture;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code svc start} as users run it: failures at start, and a clean stop on SIGTERM. */
class StartCommandIT {
  @TempDir Path dir;

  @Test
  void anUnreachableAdapterStopsTheStartWithADiagnosticNamingIt() {
    ProjectFixture.write(
        dir,
        """
        == .svc
        name: broken
        == app/adapters/warehouse.terse
        connector: postgres
        connection_string: "postgresql://nobody@127.0.0.1:1/nothing"
        == app/tools/count/config.terse
        description: Counts.
        use: warehouse
        statement: SELECT 1
        """);
    StringWriter err = new StringWriter();
    int exit =
        Main.run(
            new CliContext(
                dir, Map.of(), new PrintWriter(new StringWriter()), new PrintWriter(err, true)),
            "start",
            "-p",
            "0");
    assertThat(exit).isEqualTo(ExitCodes.FAILED);
    assertThat(err.toString())
        .contains(
            "app/adapters/warehouse.terse:2:20: error[adapter-unavailable]: adapter warehouse: ")
        .contains("connection refused")
        .contains("nothing is served");
  }

  @Test
  void aPortInUseIsSaidBeforeAnyAdapterOpensWithHowToChooseAnother() throws Exception {
    ProjectFixture.write(
        dir,
        """
        == .svc
        name: taken
        == app/adapters/warehouse.terse
        connector: postgres
        connection_string: "postgresql://nobody@127.0.0.1:1/nothing"
        == app/tools/count/config.terse
        description: Counts.
        use: warehouse
        statement: SELECT 1
        """);
    try (java.net.ServerSocket taken =
        new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      int port = taken.getLocalPort();
      StringWriter err = new StringWriter();
      int exit =
          Main.run(
              new CliContext(
                  dir, Map.of(), new PrintWriter(new StringWriter()), new PrintWriter(err, true)),
              "start",
              "-p",
              String.valueOf(port));
      assertThat(exit).isEqualTo(ExitCodes.FAILED);
      assertThat(err.toString())
          .contains("port " + port + " on 127.0.0.1 is already in use")
          .contains("choose another port with -p, e.g. -p " + (port + 1))
          // said before the unreachable adapter was tried
          .doesNotContain("adapter-unavailable");
    }
  }

  /**
   * An address of another machine failed to bind with a BindException and was said as "port … is
   * already in use"; a name that does not resolve was said, once every adapter had been tried, as
   * {@code cannot listen on …: null}.
   */
  @Test
  void anAddressThatIsNotThisMachinesIsSaidAsSuchBeforeAnyAdapterOpens() {
    ProjectFixture.write(
        dir,
        """
        == .svc
        name: elsewhere
        == app/adapters/warehouse.terse
        connector: postgres
        connection_string: "postgresql://nobody@127.0.0.1:1/nothing"
        == app/tools/count/config.terse
        description: Counts.
        use: warehouse
        statement: SELECT 1
        """);
    for (String address : List.of("192.0.2.1", "no-such-host.invalid")) {
      StringWriter err = new StringWriter();
      int exit =
          Main.run(
              new CliContext(
                  dir, Map.of(), new PrintWriter(new StringWriter()), new PrintWriter(err, true)),
              "start",
              "-p",
              "0",
              "--address",
              address);
      assertThat(exit).isEqualTo(ExitCodes.FAILED);
      assertThat(err.toString())
          .contains(
              "error: cannot listen on "
                  + address
                  + ":0: `"
                  + address
                  + "` is not an address of this machine (")
          .contains("use one of its addresses with --address, 127.0.0.1 (the default) or 0.0.0.0")
          .doesNotContain("already in use")
          .doesNotContain("adapter-unavailable");
    }
  }

  @Test
  void aMissingVariableIsNamedWithTheFileThatUsesIt() {
    ProjectFixture.write(
        dir,
        """
        == .svc
        name: broken
        == app/adapters/db.terse
        connector: postgres
        connection_string: "{{ env.WAREHOUSE_URL }}"
        == app/tools/count/config.terse
        description: Counts.
        use: db
        statement: SELECT 1
        """);
    StringWriter err = new StringWriter();
    int exit =
        Main.run(
            new CliContext(
                dir, Map.of(), new PrintWriter(new StringWriter()), new PrintWriter(err, true)),
            "start",
            "-p",
            "0");
    assertThat(exit).isEqualTo(ExitCodes.FAILED);
    assertThat(err.toString())
        .contains(
            "app/adapters/db.terse:2:20: error[missing-env]: environment variable WAREHOUSE_URL is not set");
  }

  @Test
  void sigtermStopsTheServerCleanlyWithExitCodeZero() throws Exception {
    ProjectFixture.write(
        dir,
        """
        == .svc
        name: stoppable
        == app/adapters/db.terse
        connector: sqlite
        connection_string: ":memory:"
        == app/tools/one/config.terse
        description: One.
        use: db
        statement: SELECT 1 AS one
        """);
    int port = freePort();
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process process =
        new ProcessBuilder(
                List.of(
                    java.toString(),
                    "--enable-native-access=ALL-UNNAMED",
                    "-jar",
                    Path.of("target/svc.jar").toAbsolutePath().toString(),
                    "start",
                    dir.toString(),
                    "-p",
                    String.valueOf(port)))
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("out.log").toFile())
            .start();
    try {
      HttpClient http = HttpClient.newHttpClient();
      boolean up = false;
      for (int i = 0; i < 300 && !up; i++) {
        try {
          up =
              http.send(
                          HttpRequest.newBuilder(
                                  URI.create("http://127.0.0.1:" + port + "/heartbeat"))
                              .build(),
                          HttpResponse.BodyHandlers.ofString())
                      .statusCode()
                  == 200;
        } catch (java.io.IOException e) {
          Thread.sleep(100);
        }
      }
      assertThat(up).as("the server came up").isTrue();
      process.destroy(); // SIGTERM
      assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
      String output = Files.readString(dir.resolve("out.log"));
      assertThat(process.exitValue()).as(output).isZero();
      assertThat(output).contains("stopped");
    } finally {
      process.destroyForcibly();
    }
  }

  @Test
  void anInlineRootConfigurationIsServedFromTheProjectDirectory() throws Exception {
    ProjectFixture.write(
        dir.resolve("project"),
        """
        == .svc
        name: from-the-file
        == app/adapters/db.terse
        connector: sqlite
        connection_string: ":memory:"
        == app/tools/one/config.terse
        description: One.
        use: db
        statement: SELECT 1 AS one
        """);
    String inline =
        "{name: from-the-flag, server: {log_level: 2},"
            + " prompts: [{name: greet, messages: [{role: user, text: Hi}]}]}";
    SvcProcess svc =
        SvcProcess.serving(
            dir, dir.resolve("run"), Map.of(), "start", "-s", inline, "project", "-p", "0");
    try (svc) {
      McpHttpClient client = new McpHttpClient(svc.baseUrl());
      client.initialize();
      assertThat(client.call("one", "{}").path("result").path("structuredContent").toString())
          .isEqualTo("{\"rows\":[{\"one\":1}]}");
      assertThat(
              client
                  .request("prompts/list", "{}")
                  .path("result")
                  .path("prompts")
                  .get(0)
                  .path("name")
                  .asString())
          .isEqualTo("greet");
      assertThat(svc.stop()).isZero();
    }
    // the inline YAML replaced .svc: its name, prompts and log level (2: no info lines)
    assertThat(svc.out())
        .contains(
            "svc: serving from-the-flag (1 tool, 1 adapter, 1 prompt, 0 resources, 0 agents)");
    assertThat(svc.err()).doesNotContain("adapter ready").doesNotContain("stopped");
  }

  @Test
  void anInvalidInlineRootConfigurationIsReportedAndNothingIsServed() {
    ProjectFixture.write(
        dir,
        """
        == app/prompts/hello.terse
        messages:
          - role: user
            text: Hello
        """);
    StringWriter err = new StringWriter();
    int exit =
        Main.run(
            new CliContext(
                dir, Map.of(), new PrintWriter(new StringWriter()), new PrintWriter(err, true)),
            "start",
            "-s",
            "{name: Not Valid}",
            "-p",
            "0");
    assertThat(exit).isEqualTo(ExitCodes.FAILED);
    assertThat(err.toString())
        .contains("<inline .svc>:1:8: error[invalid-name]: `name` is `Not Valid`")
        .doesNotContain("svc: serving");
  }

  private static int freePort() throws java.io.IOException {
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
