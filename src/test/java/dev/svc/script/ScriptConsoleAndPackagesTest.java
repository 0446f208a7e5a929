package dev.svc.script;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.call.Caller;
import dev.svc.call.Deadline;
import dev.svc.call.Headers;
import dev.svc.log.Level;
import dev.svc.model.ScriptRef;
import dev.svc.model.Scripts;
import dev.svc.testing.CapturedLog;
import dev.svc.testing.NpmFixture;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** What scripts reach besides their payload: console output and npm packages. */
class ScriptConsoleAndPackagesTest {
  static final JsonMapper JSON = JsonMapper.builder().build();

  @TempDir Path dir;
  PooledScriptRunner runner;
  CapturedLog captured;

  @AfterEach
  void close() {
    if (runner != null) {
      runner.close();
    }
    if (captured != null) {
      captured.close();
    }
  }

  PooledScriptRunner runner(Scripts scripts) {
    runner =
        new PooledScriptRunner(
            new V8Engine(V8Engine.DEFAULT_HEAP_MB),
            scripts,
            new PooledScriptRunner.Settings(1, Duration.ofSeconds(30), false));
    return runner;
  }

  record Line(Level level, String logger, String message) {}

  @Test
  void consoleOutputGoesToTheStructuredLogAndToTheClientsLog() {
    Scripts scripts =
        ProjectFixture.model(
                dir,
                """
                == .svc
                name: logs
                == app/tools/greet/config.terse
                description: Logs at every level.
                == app/tools/greet/handler.ts
                export default ({ inputs }) => {
                  console.log("hello", inputs.name, { n: 1 }, [2]);
                  console.info("info line");
                  console.warn("careful");
                  console.error(new Error("bad thing"));
                  console.debug("details");
                  return "ok";
                };
                """)
            .scripts();
    runner(scripts);
    captured = CapturedLog.at(Level.DEBUG);
    List<Line> client = new CopyOnWriteArrayList<>();
    Caller caller =
        new Caller("req-42", Headers.NONE, Optional.empty())
            .withClientLog(
                (level, logger, message) -> client.add(new Line(level, logger, message)));

    JsonNode result =
        runner.call(
            new ScriptRef("app/tools/greet/handler.ts", "default"),
            JSON.readTree("{\"inputs\":{\"name\":\"Ada\"},\"tool\":\"greet\"}"),
            "greet",
            Deadline.after(Duration.ofSeconds(10)),
            caller);

    assertThat(result.asString()).isEqualTo("ok");
    assertThat(client)
        .extracting(Line::level, Line::logger)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(Level.INFO, "script:greet"),
            org.assertj.core.groups.Tuple.tuple(Level.INFO, "script:greet"),
            org.assertj.core.groups.Tuple.tuple(Level.WARN, "script:greet"),
            org.assertj.core.groups.Tuple.tuple(Level.ERROR, "script:greet"),
            org.assertj.core.groups.Tuple.tuple(Level.DEBUG, "script:greet"));
    assertThat(client.getFirst().message()).isEqualTo("hello Ada {\"n\":1} [2]");
    assertThat(client.get(3).message()).startsWith("Error: bad thing");
    String log = captured.text();
    assertThat(log)
        .contains("script:greet")
        .contains("hello Ada {\"n\":1} [2]")
        .contains("careful")
        .contains("details")
        .contains("req-42");
  }

  @Test
  void scriptsUseNpmPackagesFromTheVendorBundle_esModulesAndCommonJsAlike() {
    NpmFixture.install(dir);
    Scripts scripts =
        ProjectFixture.model(
                dir,
                """
                == .svc
                name: npm
                == app/tools/slugs/config.terse
                description: Uses two npm packages.
                == app/tools/slugs/handler.ts
                import slug, { shout, VERSION } from "tiny-slug";
                import * as tiny from "tiny-slug";
                import count from "tiny-counter";
                import { sum } from "tiny-counter";
                export default ({ inputs }) => ({
                  slug: slug(inputs.title),
                  shout: shout("hi"),
                  version: VERSION,
                  namespace: tiny.default === slug,
                  count: count(inputs.numbers),
                  sum: sum(inputs.numbers),
                });
                """)
            .scripts();
    runner(scripts);

    JsonNode result =
        runner.call(
            new ScriptRef("app/tools/slugs/handler.ts", "default"),
            JSON.readTree("{\"inputs\":{\"title\":\"Hello, Big World\",\"numbers\":[1,2,3]}}"),
            "slugs",
            Deadline.after(Duration.ofSeconds(10)),
            Caller.internal("test"));

    assertThat(result)
        .isEqualTo(
            JSON.readTree(
                "{\"slug\":\"hello-big-world\",\"shout\":\"HI!\",\"version\":\"1.0.0\","
                    + "\"namespace\":true,\"count\":3,\"sum\":6}"));
  }
}
