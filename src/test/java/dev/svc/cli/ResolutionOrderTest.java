package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.log.Level;
import dev.svc.log.LogSink;
import dev.svc.model.Model;
import dev.svc.project.Environment;
import dev.svc.testing.ProjectFixture;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Port and log level are resolved in the order the specification gives. */
class ResolutionOrderTest {
  @TempDir Path dir;

  @AfterEach
  void resetLogging() {
    new LogOptions().apply(Optional.empty(), context());
  }

  @Test
  void portComesFromTheFlagThenServerPortThenEnvPortThen8080() {
    Model withPort = model("server: {port: 9100}");
    Model without = model("");
    Environment port = Environment.of(Map.of("PORT", "9200"));
    Environment none = Environment.of(Map.of());
    assertThat(StartCommand.options(withPort, port, dir, "127.0.0.1", 9000, false).port())
        .isEqualTo(9000);
    assertThat(StartCommand.options(withPort, port, dir, "127.0.0.1", null, false).port())
        .isEqualTo(9100);
    assertThat(StartCommand.options(without, port, dir, "127.0.0.1", null, false).port())
        .isEqualTo(9200);
    assertThat(StartCommand.options(without, none, dir, "127.0.0.1", null, false).port())
        .isEqualTo(8080);
  }

  @Test
  void logLevelComesFromVerboseThenTheFlagThenServerLogLevelThen3() {
    LogOptions options = new LogOptions();
    options.verbose = true;
    options.level = 1;
    options.apply(Optional.of(2), context());
    assertThat(LogSink.level()).isEqualTo(Level.DEBUG);

    options = new LogOptions();
    options.level = 1;
    options.apply(Optional.of(2), context());
    assertThat(LogSink.level()).isEqualTo(Level.ERROR);

    new LogOptions().apply(Optional.of(2), context());
    assertThat(LogSink.level()).isEqualTo(Level.WARN);

    new LogOptions().apply(Optional.empty(), context());
    assertThat(LogSink.level()).isEqualTo(Level.INFO);
  }

  private Model model(String rootExtra) {
    return ProjectFixture.model(
        dir.resolve(String.valueOf(rootExtra.hashCode())),
        """
        == .svc
        name: ports
        %s
        == app/tools/t/config.terse
        description: T.
        handler: handler.ts
        == app/tools/t/handler.ts
        export default () => 1;
        """
            .formatted(rootExtra));
  }

  private CliContext context() {
    return new CliContext(
        dir, Map.of(), new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
  }
}
