package dev.svc.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.svc.cli.Instance;
import dev.svc.connector.Connector;
import dev.svc.connector.ConnectorUnavailableException;
import dev.svc.connector.ResolvedAdapter;
import dev.svc.diagnostic.Diagnostic;
import dev.svc.model.Model;
import dev.svc.project.Environment;
import dev.svc.runtime.StartupException;
import dev.svc.testing.ProjectFixture;
import dev.svc.testing.StubConnector;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What stops serving before the port opens: missing variables and bad loop options. */
class AgentStartupTest {
  @TempDir Path directory;

  Model project(String options) {
    return ProjectFixture.model(
        directory,
        """
        == .svc
        name: shop
        == app/agents/helper/config.terse
        instruction: Help.
        model:
          provider: gemini
          model: gemini-2.5-flash
          options:
        """
            + options);
  }

  StartupException launchFails(Model model) {
    return launchFails(model, Map.of(), a -> new StubConnector());
  }

  StartupException launchFails(
      Model model,
      Map<String, String> environment,
      Function<ResolvedAdapter, Connector> connectors) {
    return catchThrowableOfType(
        StartupException.class,
        () ->
            Instance.launch(
                    model,
                    new Instance.Options(
                        Environment.of(environment), directory, "127.0.0.1", 0, false, connectors))
                .close());
  }

  static List<String> lines(StartupException e) {
    return e.problems().stream().map(ProjectFixture::line).toList();
  }

  @Test
  void aMissingVariableInModelOptionsStopsTheStartNamingIt() {
    StartupException e = launchFails(project("    api_key: \"{{ env.GEMINI_TEST_KEY }}\"\n"));
    assertThat(lines(e))
        .containsExactly(
            "app/agents/helper/config.terse:6:14: error[missing-env]: environment variable GEMINI_TEST_KEY is not set");
  }

  @Test
  void aLoopOptionFromTheEnvironmentThatIsNotAPositiveNumberStopsTheStart() {
    Model model = project("    api_key: k\n    max_steps: \"{{ env.STEPS }}\"\n");
    StartupException e = launchFails(model, Map.of("STEPS", "many"), a -> new StubConnector());
    assertThat(e.problems()).extracting(Diagnostic::code).containsExactly("invalid-option");
    assertThat(lines(e).getFirst())
        .isEqualTo(
            "app/agents/helper/config.terse:7:16: error[invalid-option]: model option `max_steps` must be a positive whole number, not `many`");
  }

  @Test
  void anAdapterThatCannotOpenAndABadLoopOptionAreReportedTogether() {
    Model model =
        ProjectFixture.model(
            directory,
            """
            == .svc
            name: shop
            == app/adapters/db.terse
            connector: sqlite
            connection_string: "file:./shop.db"
            == app/tools/one/config.terse
            description: One.
            use: db
            statement: SELECT 1
            == app/agents/helper/config.terse
            instruction: Help.
            model:
              provider: gemini
              model: gemini-2.5-flash
              options:
                api_key: k
                max_steps: "{{ env.STEPS }}"
            """);
    StartupException e =
        launchFails(
            model,
            Map.of("STEPS", "many"),
            a -> {
              throw new ConnectorUnavailableException("the database is down");
            });
    assertThat(e.problems())
        .extracting(Diagnostic::code)
        .containsExactlyInAnyOrder("adapter-unavailable", "invalid-option");
  }

  @Test
  void aProviderWithoutCredentialsIsOnlyAWarning() {
    assertThat(AgentChecks.check(project("    temperature: 1\n"), Environment.of(Map.of())))
        .isEmpty();
  }
}
