package dev.svc.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cache.ResultCache;
import dev.svc.call.Deadline;
import dev.svc.connector.Connector;
import dev.svc.connector.ResolvedAdapter;
import dev.svc.connector.StatementOptions;
import dev.svc.model.Model;
import dev.svc.model.Statement;
import dev.svc.project.Environment;
import dev.svc.script.UnavailableScriptRunner;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** A reload keeps the connectors of unchanged adapters and retires the others. */
class ProjectReloadTest {
  private static final String BEFORE =
      "== .svc\nname: reloaded\n"
          + adapter("kept", ":memory:")
          + adapter("changed", "file:before.db")
          + adapter("dropped", ":memory:")
          + tool("one", "kept")
          + tool("two", "changed")
          + tool("three", "dropped");

  private static final String AFTER =
      "== .svc\nname: reloaded\n"
          + adapter("kept", ":memory:")
          + adapter("changed", "file:after.db")
          + tool("one", "kept")
          + tool("two", "changed");

  private static String adapter(String name, String connectionString) {
    return "== app/adapters/%s.terse\nconnector: sqlite\nconnection_string: \"%s\"\n"
        .formatted(name, connectionString);
  }

  private static String tool(String name, String adapter) {
    return "== app/tools/%s/config.terse\ndescription: A tool.\nuse: %s\nstatement: SELECT 1\n"
        .formatted(name, adapter);
  }

  @TempDir Path before;
  @TempDir Path after;

  /** A connector that only records whether it was closed. */
  private static final class Recorded implements Connector {
    final String adapter;
    volatile boolean closed;

    Recorded(ResolvedAdapter adapter) {
      this.adapter = adapter.name();
    }

    @Override
    public void check(Deadline deadline) {}

    @Override
    public JsonNode execute(
        Statement statement,
        Map<String, Object> values,
        Deadline deadline,
        StatementOptions options) {
      throw new UnsupportedOperationException("only opened");
    }

    @Override
    public void close() {
      closed = true;
    }
  }

  /** Settings of both runtimes: the project directory is part of what makes an adapter equal. */
  private ProjectRuntime.Settings settings() {
    return new ProjectRuntime.Settings(
        Environment.of(Map.of()),
        before,
        Recorded::new,
        new UnavailableScriptRunner(),
        ResultCache.DEFAULT_MAX_BYTES);
  }

  @Test
  void aReloadKeepsTheConnectorOfAnUnchangedAdapterAndRetiresTheOthers() {
    Model first = ProjectFixture.model(before, BEFORE);
    Model second = ProjectFixture.model(after, AFTER);

    try (ProjectRuntime old = ProjectRuntime.start(first, settings())) {
      Map<String, Connector> opened = Map.copyOf(old.connectors());
      ProjectRuntime fresh = old.reload(second, settings());

      assertThat(fresh.connectors()).containsOnlyKeys("kept", "changed");
      assertThat(fresh.connectors().get("kept")).isSameAs(opened.get("kept"));
      assertThat(fresh.connectors().get("changed")).isNotSameAs(opened.get("changed"));
      List<Connector> retired = old.retiredBy(fresh);
      assertThat(retired)
          .extracting(c -> ((Recorded) c).adapter)
          .containsExactlyInAnyOrder("changed", "dropped");
      assertThat(retired).allMatch(c -> !((Recorded) c).closed);

      ProjectRuntime.close(retired);
      assertThat(retired).allMatch(c -> ((Recorded) c).closed);
      assertThat(((Recorded) fresh.connectors().get("kept")).closed).isFalse();
      fresh.close();
      assertThat(fresh.connectors().values()).allMatch(c -> ((Recorded) c).closed);
    }
  }
}
