package dev.svc.protocol.mcp;

import dev.svc.cache.ResultCache;
import dev.svc.project.Environment;
import dev.svc.runtime.ProjectRuntime;
import dev.svc.script.UnavailableScriptRunner;
import dev.svc.testing.ProjectFixture;
import dev.svc.testing.StubConnector;
import java.nio.file.Path;
import java.util.Map;

/** A runtime for tests of the MCP layer without a database: one tool, {@code slow}, on a stub. */
final class OneToolRuntime {
  private OneToolRuntime() {}

  static ProjectRuntime start(Path directory) {
    return ProjectRuntime.start(
        ProjectFixture.model(
            directory,
            """
            == .svc
            name: shop
            == app/adapters/db.terse
            connector: sqlite
            connection_string: ":memory:"
            == app/tools/slow/config.terse
            description: Takes its time.
            use: db
            statement: select 1
            """),
        new ProjectRuntime.Settings(
            Environment.of(Map.of()),
            directory,
            adapter -> new StubConnector(),
            new UnavailableScriptRunner(),
            ResultCache.DEFAULT_MAX_BYTES));
  }
}
