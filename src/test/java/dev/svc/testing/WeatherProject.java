package dev.svc.testing;

import dev.svc.cache.ResultCache;
import dev.svc.model.Model;
import dev.svc.project.Environment;
import dev.svc.runtime.ProjectRuntime;
import dev.svc.script.UnavailableScriptRunner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The one-tool project of the pipeline's and the protocols' unit tests: {@code weather(city)}, a
 * statement on a SQLite adapter, with a 2 s timeout. As an extension, it serves the project for the
 * test class from a {@link StubConnector}, no database:
 *
 * <pre>
 * &#64;RegisterExtension static final WeatherProject project = new WeatherProject();
 * </pre>
 */
public final class WeatherProject implements BeforeAllCallback, AfterAllCallback {
  /** The project's files, for {@link ProjectFixture#model}. */
  public static final String FILES =
      """
      == .svc
      name: weather
      == app/adapters/db.terse
      {connector: sqlite, connection_string: ":memory:"}
      == app/tools/weather/config.terse
      {description: Weather forecast for a city., use: db, timeout: 2,
       statement: "select forecast from weather where city = {{ inputs.city }}",
       inputs: {city: {type: string, required: true}}}
      """;

  private Path directory;
  private ProjectRuntime runtime;

  /** The project's compiled model, written to {@code directory}. */
  public static Model model(Path directory) {
    return ProjectFixture.model(directory, FILES);
  }

  @Override
  public void beforeAll(ExtensionContext context) throws IOException {
    directory = Files.createTempDirectory("svc-weather");
    runtime =
        ProjectRuntime.start(
            model(directory),
            new ProjectRuntime.Settings(
                Environment.of(Map.of()),
                directory,
                adapter -> new StubConnector(),
                new UnavailableScriptRunner(),
                ResultCache.DEFAULT_MAX_BYTES));
  }

  /** The project being served, the whole test class long. */
  public ProjectRuntime runtime() {
    return runtime;
  }

  @Override
  public void afterAll(ExtensionContext context) throws IOException {
    runtime.close();
    try (Stream<Path> files = Files.walk(directory)) {
      files.sorted(Comparator.reverseOrder()).forEach(WeatherProject::delete);
    }
  }

  private static void delete(Path path) {
    try {
      Files.delete(path);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
