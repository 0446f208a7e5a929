package dev.svc.testing;

import dev.svc.cli.Instance;
import dev.svc.connector.Connectors;
import dev.svc.model.Model;
import dev.svc.project.Environment;
import java.nio.file.Path;
import java.util.Map;

/** Starts a fixture project for real on a free loopback port, as {@code svc start} would. */
public final class RunningProject {
  private RunningProject() {}

  public static Instance start(Path directory, String files) {
    return start(directory, files, Map.of());
  }

  /** Starts the project already written in {@code directory}. */
  public static Instance startFromDirectory(Path directory, Map<String, String> environment) {
    dev.svc.compile.Compilation compilation = ProjectFixture.compile(directory);
    if (!(compilation instanceof dev.svc.compile.Compilation.Success success)) {
      throw new AssertionError("invalid project: " + compilation.diagnostics());
    }
    return Instance.launch(
        success.model(),
        new Instance.Options(
            Environment.of(environment), directory, "127.0.0.1", 0, false, Connectors::open));
  }

  public static Instance start(Path directory, String files, Map<String, String> environment) {
    Model model = ProjectFixture.model(directory, files);
    return Instance.launch(
        model,
        new Instance.Options(
            Environment.of(environment), directory, "127.0.0.1", 0, false, Connectors::open));
  }
}
