package dev.svc.suite.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.svc.model.Model;
import dev.svc.runtime.ProjectRuntime;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fixture that changed since the project was compiled into something that cannot be read whole
 * (here a named pipe that nothing writes) stops its suite with an error instead of hanging the run.
 */
class FixturesTest {
  @TempDir Path dir;

  @Test
  void aFixtureThatIsNoLongerARegularFileIsAnErrorNotAHang() throws Exception {
    Model model =
        ProjectFixture.model(
            dir,
            """
            == .svc
            name: shop
            == app/adapters/shop.terse
            connector: sqlite
            connection_string: ":memory:"
            == app/tools/one/config.terse
            description: One.
            use: shop
            statement: SELECT 1 AS x
            == db/items.sql
            CREATE TABLE items (id INTEGER);
            """);
    Path fixture = dir.resolve("db/items.sql");
    Files.delete(fixture);
    assertThat(new ProcessBuilder("mkfifo", fixture.toString()).start().waitFor()).isZero();

    try (ProjectRuntime runtime = ProjectFixture.runtimeWithoutScripts(model, dir)) {
      // the timeout only keeps a regression from hanging the build
      assertTimeoutPreemptively(
          Duration.ofMinutes(2),
          () ->
              assertThatThrownBy(
                      () -> Fixtures.apply("shop", List.of("db/items.sql"), runtime, dir))
                  .isInstanceOf(Fixtures.FixtureException.class)
                  .hasMessage(
                      "fixture db/items.sql is not a regular file of at most 67108864 bytes"));
    }
  }
}
