package dev.svc.script;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.model.Model;
import dev.svc.model.ScriptRef;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class ScriptSandboxTest {
  @TempDir Path dir;

  @Test
  void smoke() {
    Model model =
        ProjectFixture.model(
            dir,
            """
            == .svc
            name: demo
            == app/tools/hello/config.terse
            description: Says hello.
            inputs:
              name: {type: string}
            == app/tools/hello/handler.ts
            export default ({ inputs }: { inputs: { name: string } }) => ({ greeting: "Hello " + inputs.name });
            """);
    try (PooledScriptRunner runner =
        new PooledScriptRunner(
            new V8Engine(64),
            model.scripts(),
            new PooledScriptRunner.Settings(2, Duration.ofSeconds(5), false))) {
      JsonNode payload =
          JsonMapper.builder()
              .build()
              .readTree("{\"inputs\":{\"name\":\"Ada\"},\"tool\":\"hello\"}");
      JsonNode result =
          runner.call(
              new ScriptRef("app/tools/hello/handler.ts", "default"),
              payload,
              "hello",
              Duration.ofSeconds(5));
      assertThat(result.toString()).isEqualTo("{\"greeting\":\"Hello Ada\"}");
    }
  }
}
