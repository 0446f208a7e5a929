package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.testing.ProjectFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Signals that reach {@code svc start --watch} while the watcher is busy: registering a large tree
 * just after the banner, or recompiling a changed project.
 */
class WatchSignalIT {
  @TempDir Path dir;

  /**
   * The watcher registers every directory after the banner says svc serves; before, the shutdown
   * hook came after that, so a SIGTERM meanwhile ended the process at once (exit 143, no drain) on
   * a port already open.
   */
  @Test
  void aSigtermJustAfterTheBannerDrainsAndExitsZero() throws Exception {
    Path project = project("big-tree", 1, 0);
    for (int i = 0; i < 3000; i++) {
      Files.createDirectories(project.resolve("data/d" + i));
    }
    SvcProcess svc = SvcProcess.starting(dir, project, "--watch", "--log-format", "json");
    try (svc) {
      svc.terminate();
      int exit = svc.awaitExit(Duration.ofSeconds(30));

      assertThat(exit).as("%s\n%s", svc.out(), svc.err()).isZero();
      assertThat(svc.err()).contains("\"stopped\"");
    }
  }

  /**
   * SIGTERM while a reload compiles, with a drain delay (the process lives on for it): the
   * compilation is cut short (esbuild interrupted). Before, that was printed as the project's error
   * ({@code error[bundler-unavailable]: interrupted while esbuild ran}, hint: {@code run svc on
   * linux-x64}) and {@code the changed project has errors}.
   */
  @Test
  void aSigtermDuringAReloadsCompilationReportsNoErrorOfTheProject() throws Exception {
    Path project = project("busy-reload", 300, 2);
    SvcProcess svc = SvcProcess.starting(dir, project, "--watch", "--log-format", "json");
    try (svc) {
      svc.awaitOut("watching", Duration.ofSeconds(10));
      Files.writeString(
          project.resolve("app/tools/t1/handler.ts"), "\n// changed\n", StandardOpenOption.APPEND);
      AgentTaskDrainIT.awaitLogged(svc, "files changed, recompiling");
      svc.terminate();
      int exit = svc.awaitExit(Duration.ofSeconds(30));

      assertThat(exit).isZero();
      assertThat(svc.err())
          .doesNotContain("error[")
          .doesNotContain("the changed project has errors")
          .contains("\"stopped\"");
    }
  }

  /** A project of {@code tools} script tools. */
  private Path project(String name, int tools, int drainDelay) {
    StringBuilder files =
        new StringBuilder(
            """
            == .svc
            name: %s
            server:
              limits:
                drain_delay: %d
                drain_timeout: 2
            """
                .formatted(name, drainDelay));
    for (int i = 1; i <= tools; i++) {
      files.append(
          """
          == app/tools/t%1$d/config.terse
          description: Tool %1$d.
          inputs:
            x:
              type: int
              description: A number.
          == app/tools/t%1$d/handler.ts
          export default ({ inputs }: any) => ({ v: inputs.x + %1$d });
          """
              .formatted(i));
    }
    return ProjectFixture.write(dir.resolve("project"), files.toString());
  }
}
