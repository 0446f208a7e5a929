package dev.svc.script;

import dev.svc.model.ScriptRef;
import dev.svc.model.Scripts;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.*;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class PerfScratchTest {
  @TempDir Path dir;

  @Test
  void perf() throws Exception {
    Scripts scripts =
        ProjectFixture.model(
                dir,
                """
                == .svc
                name: p
                == app/tools/t/config.terse
                description: x
                == app/tools/t/handler.ts
                export default ({inputs}) => ({greeting: "Hello " + inputs.name});
                """)
            .scripts();
    JsonMapper json = JsonMapper.builder().build();
    JsonNode payload = json.readTree("{\"inputs\":{\"name\":\"x\"},\"tool\":\"t\"}");
    ScriptRef ref = new ScriptRef("app/tools/t/handler.ts", "default");
    ScriptHost host =
        new ScriptHost() {
          public void console(dev.svc.log.Level l, String m) {}

          public CompletableFuture<String> fetch(String r) {
            return null;
          }
        };
    try (ScriptIsolate iso = new V8Engine(128).newIsolate(scripts)) {
      String p = payload.toString();
      for (int round = 0; round < 3; round++) {
        int n = 100000;
        long s = System.nanoTime();
        for (int i = 0; i < n; i++)
          iso.call(
              new ScriptCall(
                  ref,
                  json.writeValueAsString(payload),
                  "t",
                  Duration.ofSeconds(10),
                  System.nanoTime() + 10_000_000_000L,
                  host));
        System.out.printf("PERF direct: %.2f us/call%n", (System.nanoTime() - s) / 1e3 / n);
      }
    }
    try (PooledScriptRunner r =
        new PooledScriptRunner(
            new V8Engine(128), scripts, PooledScriptRunner.Settings.defaults())) {
      for (int round = 0; round < 3; round++) {
        int n = 50000;
        long s = System.nanoTime();
        for (int i = 0; i < n; i++) r.call(ref, payload, "t", Duration.ofSeconds(10));
        System.out.printf("PERF serial: %.2f us/call%n", (System.nanoTime() - s) / 1e3 / n);
      }
      for (int round = 0; round < 3; round++) {
        int n = 100000;
        long s = System.nanoTime();
        try (ExecutorService ex = Executors.newVirtualThreadPerTaskExecutor()) {
          for (int t = 0; t < 16; t++)
            ex.submit(() -> {
              for (int i = 0; i < n / 16; i++) r.call(ref, payload, "t", Duration.ofSeconds(10));
              return null;
            });
        }
        double secs = (System.nanoTime() - s) / 1e9;
        System.out.printf("PERF c=16: %.0f calls/s%n", n / secs);
      }
    }
  }
}
