package dev.svc.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.svc.cache.ResultCache;
import dev.svc.call.Deadline;
import dev.svc.connector.Connector;
import dev.svc.connector.ConnectorUnavailableException;
import dev.svc.connector.ResolvedAdapter;
import dev.svc.connector.StatementOptions;
import dev.svc.model.Model;
import dev.svc.model.Statement;
import dev.svc.project.Environment;
import dev.svc.script.UnavailableScriptRunner;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** The connectivity checks of adapters at start: all at once, every failure reported. */
class AdapterChecksTest {
  private static final String PROJECT =
      """
      == .svc
      name: checked
      == app/adapters/first.terse
      connector: sqlite
      connection_string: ":memory:"
      == app/adapters/second.terse
      connector: sqlite
      connection_string: ":memory:"
      == app/adapters/third.terse
      connector: sqlite
      connection_string: ":memory:"
      == app/tools/one/config.terse
      description: One.
      use: first
      statement: SELECT 1
      == app/tools/two/config.terse
      description: Two.
      use: second
      statement: SELECT 2
      == app/tools/three/config.terse
      description: Three.
      use: third
      statement: SELECT 3
      """;

  @TempDir Path directory;

  /** A connector for the start-up check only: it runs {@code check} and never executes. */
  private record Checked(Runnable check) implements Connector {
    @Override
    public void check(Deadline deadline) {
      check.run();
    }

    @Override
    public JsonNode execute(
        Statement statement,
        Map<String, Object> values,
        Deadline deadline,
        StatementOptions options) {
      throw new UnsupportedOperationException("only checked");
    }

    @Override
    public void close() {}
  }

  /**
   * A check that returns only once {@code everyone} is waiting too, or fails after {@code wait}.
   */
  private static Runnable meeting(CyclicBarrier everyone, Duration wait) {
    return () -> {
      try {
        everyone.await(wait.toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException | BrokenBarrierException e) {
        throw new ConnectorUnavailableException("the other checks did not run meanwhile", e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ConnectorUnavailableException("interrupted", e);
      }
    };
  }

  private ProjectRuntime start(Model model, Function<ResolvedAdapter, Connector> connectors) {
    return ProjectRuntime.start(
        model,
        new ProjectRuntime.Settings(
            Environment.of(Map.of()),
            directory,
            connectors,
            new UnavailableScriptRunner(),
            ResultCache.DEFAULT_MAX_BYTES));
  }

  @Test
  void everyAdapterIsCheckedAtTheSameTime() {
    Model model = ProjectFixture.model(directory, PROJECT);
    // each check returns only once all three are running: one after the other, the first would
    // wait in vain and the start would fail
    CyclicBarrier everyone = new CyclicBarrier(3);

    long started = System.nanoTime();
    try (ProjectRuntime runtime =
        start(model, adapter -> new Checked(meeting(everyone, Duration.ofSeconds(10))))) {
      assertThat(runtime.connectors()).containsOnlyKeys("first", "second", "third");
    }
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
  }

  @Test
  void slowChecksTakeAboutAsLongAsTheSlowestNotTheirSum() {
    Model model = ProjectFixture.model(directory, PROJECT);
    Duration each = Duration.ofMillis(600);

    long started = System.nanoTime();
    try (ProjectRuntime runtime =
        start(
            model,
            adapter ->
                new Checked(() -> {
                  try {
                    Thread.sleep(each);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                }))) {
      assertThat(runtime.connectors()).hasSize(3);
    }
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    assertThat(took).isGreaterThanOrEqualTo(each).isLessThan(each.multipliedBy(3));
  }

  @Test
  void everyFailingAdapterIsReportedAtOnce() {
    Model model = ProjectFixture.model(directory, PROJECT);

    StartupException e =
        catchThrowableOfType(
            StartupException.class,
            () ->
                start(
                        model,
                        adapter ->
                            new Checked(() -> {
                              if (!adapter.name().equals("second")) {
                                throw new ConnectorUnavailableException(
                                    adapter.name() + " is down");
                              }
                            }))
                    .close());

    List<String> lines = e.problems().stream().map(ProjectFixture::line).toList();
    assertThat(lines)
        .containsExactlyInAnyOrder(
            "adapter first: error[adapter-unavailable]: first is down",
            "adapter third: error[adapter-unavailable]: third is down");
  }
}
