package dev.svc.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.call.Caller;
import dev.svc.call.Headers;
import dev.svc.connector.Connectors;
import dev.svc.json.Json;
import dev.svc.model.Model;
import dev.svc.project.Environment;
import dev.svc.script.PooledScriptRunner;
import dev.svc.script.V8Engine;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A cached tool behind a custom auth plugin that admits callers by a header of its own and names no
 * identity: each caller gets its own cached results, never another's.
 */
class AuthPluginCacheIT {
  static final String PROJECT =
      """
      == .svc
      name: proxied
      tools:
        cache:
          enabled: true
          ttl: 60
      == app/tools/profile/config.terse
      description: The caller's profile (a new one on every run of the handler).
      cache:
        enabled: true
        ttl: 60
      auth:
        plugin: proxy
      == app/tools/profile/handler.ts
      export default () => ({ profile: Math.random() });
      == app/plugins/proxy.ts
      // behind an auth proxy: it has checked the user and says who in X-Forwarded-User
      export default ({ headers }) => (headers["x-forwarded-user"] ?? "") !== "";
      """;

  @TempDir Path dir;
  ProjectRuntime runtime;

  @BeforeEach
  void start() {
    Model model = ProjectFixture.model(dir, PROJECT);
    runtime =
        ProjectRuntime.start(
            model,
            new ProjectRuntime.Settings(
                Environment.of(Map.of()),
                dir,
                Connectors::open,
                new PooledScriptRunner(
                    new V8Engine(V8Engine.DEFAULT_HEAP_MB),
                    model.scripts(),
                    new PooledScriptRunner.Settings(2, Duration.ofSeconds(30), false)),
                1 << 20));
  }

  @AfterEach
  void stop() {
    runtime.close();
  }

  @Test
  void callersAdmittedByAnotherHeaderAreToldApartInTheCache() {
    JsonNode alice = profile("alice", "trace-1");
    JsonNode bob = profile("bob", "trace-2");

    assertThat(bob).as("bob is not served alice's cached profile").isNotEqualTo(alice);
    assertThat(profile("alice", "trace-3"))
        .as("alice's next request, with another trace id, is served from the cache")
        .isEqualTo(alice);
  }

  private JsonNode profile(String user, String trace) {
    Headers headers =
        Headers.of(
            "X-Forwarded-User",
            user,
            "traceparent",
            "00-" + "0".repeat(24) + trace.hashCode() + "-0000000000000001-01",
            "User-Agent",
            "agent/" + trace);
    ToolOutcome outcome =
        runtime
            .tools()
            .call(
                "profile",
                Json.MAPPER.readTree("{}"),
                new Caller(trace, headers, Optional.empty()));
    assertThat(outcome).isInstanceOf(ToolOutcome.Success.class);
    return ((ToolOutcome.Success) outcome).payload();
  }
}
