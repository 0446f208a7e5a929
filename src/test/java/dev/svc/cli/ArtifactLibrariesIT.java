package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.testing.A2aFixture;
import dev.svc.testing.GeminiReplies;
import dev.svc.testing.GoogleServiceAccount;
import dev.svc.testing.InJvmMongo;
import dev.svc.testing.McpHttpClient;
import dev.svc.testing.ProjectFixture;
import dev.svc.testing.ScriptedModelServer;
import dev.svc.testing.StatelessMcpClient;
import dev.svc.testing.TestDatabase;
import dev.svc.testing.TestRedis;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A built artifact holds only the jars its project uses ({@link RuntimeLibraries}), and serves
 * every part of it from them: each project here is built, then served by its own launcher in a JVM
 * of its own, whose class path is the artifact's and nothing else.
 */
class ArtifactLibrariesIT {
  @RegisterExtension static final TestDatabase POSTGRES = TestDatabase.postgres();
  @RegisterExtension static final TestDatabase MYSQL = TestDatabase.mysql();
  @RegisterExtension static final InJvmMongo MONGO = new InJvmMongo();
  @RegisterExtension static final TestRedis REDIS = new TestRedis();

  private static final Pattern SERVING = Pattern.compile("serving .* on (http://[^\\s\"]+)/mcp");

  @TempDir Path work;

  /** What the last {@link #build} printed. */
  private String built;

  @Test
  void everyJarOfSvcsClassPathBelongsToAPart() {
    List<String> unsorted =
        RuntimeJars.locate().classPath().stream()
            .filter(entry -> RuntimeLibraries.claiming(entry).isEmpty())
            .toList();
    assertThat(unsorted)
        .as("jars no part of RuntimeLibraries claims (every artifact ships them)")
        .isEmpty();
  }

  @Test
  void aSqliteProjectShipsNeitherOtherDriversNorV8NorTheCompilers() throws Exception {
    Path dist =
        build(
            """
            == .svc
            name: lite
            == seed.sql
            CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);
            INSERT INTO notes VALUES (1, 'first');
            == app/adapters/db.terse
            connector: sqlite
            connection_string: "file:./notes.db"
            options:
              seed: ./seed.sql
            == app/tools/get_note/config.terse
            description: One note.
            use: db
            statement: SELECT id, body FROM notes WHERE id = {{ inputs.id }}
            inputs:
              id: {type: int}
            == app/prompts/ask.terse
            arguments:
              topic: {required: true}
            messages:
              - role: user
                text: Tell me about {{ topic }}.
            """,
            true);

    assertThat(built).containsPattern("lib/lib/\\*\\.jar \\(\\d+ jars: core, sqlite\\)");
    assertThat(jars(dist))
        .contains("sqlite-jdbc", "jetty-server", "jackson-databind", "opentelemetry-sdk")
        .doesNotContain(
            "javet",
            "javet-v8-linux-x86_64",
            "postgresql",
            "mysql-connector-j",
            "mongodb-driver-core",
            "jedis",
            "guava",
            "google-auth-library-oauth2-http",
            "typescript",
            "linux-x64",
            "marked");
    try (Served served = serve(dist)) {
      StatelessMcpClient mcp = new StatelessMcpClient(served.baseUrl());
      assertThat(mcp.post("tools/call", "{\"name\":\"get_note\",\"arguments\":{\"id\":1}}").body())
          .contains("\"body\":\"first\"", "\"isError\":false");
      assertThat(
              mcp.post("prompts/get", "{\"name\":\"ask\",\"arguments\":{\"topic\":\"jars\"}}")
                  .body())
          .contains("Tell me about jars.");
      assertThat(mcp.post("tools/call", "{\"name\":\"get_note\",\"arguments\":{}}").body())
          .contains("\"isError\":true", "missing required input `id`");
      assertThat(mcp.postRaw("{not json", "MCP-Protocol-Version", "2026-07-28").body())
          .contains("-32700");
      assertThat(served.output()).doesNotContain("NoClassDefFoundError", "Exception");
    }
  }

  @Test
  void aProjectOfEveryConnectorAScriptAndSharedStateServesFromItsArtifact() throws Exception {
    String prefix = REDIS.prefix();
    Path dist =
        build(
            """
            == .svc
            name: every-part
            agents:
              tasks:
                store: pg
            tools:
              cache:
                store: kv
            == app/adapters/pg.terse
            connector: postgres
            connection_string: "%s"
            == app/adapters/my.terse
            connector: mysql
            connection_string: "%s"
            == app/adapters/mongo.terse
            connector: mongodb
            connection_string: "%s"
            == app/adapters/kv.terse
            connector: redis
            connection_string: "%s"
            == app/adapters/lite.terse
            connector: sqlite
            connection_string: ":memory:"
            == app/tools/pg_next/config.terse
            description: The next number, from PostgreSQL.
            use: pg
            statement: SELECT {{ inputs.n }}::int + 1 AS next
            inputs:
              n: {type: int}
            == app/tools/my_next/config.terse
            description: The next number, from MySQL.
            use: my
            statement: SELECT {{ inputs.n }} + 1 AS next
            inputs:
              n: {type: int}
            == app/tools/mongo_count/config.terse
            description: Counts the documents of a collection.
            use: mongo
            statement: |
              {"database": "parts", "command": {"count": "things"}}
            == app/tools/kv_put/config.terse
            description: Sets a key.
            use: kv
            statement: SET "%skey" {{ inputs.value }}
            inputs:
              value: {type: string}
            == app/tools/kv_get/config.terse
            description: Reads the key.
            use: kv
            statement: GET "%skey"
            == app/tools/lite_one/config.terse
            description: One, from SQLite, cached.
            use: lite
            statement: SELECT 1 AS one
            cache:
              enabled: true
              ttl: 60
            == app/tools/shout/config.terse
            description: Shouts.
            handler: handler.ts
            inputs:
              text: {type: string}
            == app/tools/shout/handler.ts
            export default ({ inputs }: { inputs: { text: string } }) => ({ loud: inputs.text.toUpperCase() + "!" });
            == app/agents/helper/config.terse
            instruction: Help.
            model:
              provider: openai_compatible
              model: small
              options:
                base_url: http://127.0.0.1:9/v1
            """
                .formatted(
                    POSTGRES.connectionString(),
                    MYSQL.connectionString(),
                    MONGO.connectionString(),
                    REDIS.connectionString(7),
                    prefix,
                    prefix),
            false);

    assertThat(jars(dist))
        .contains(
            "javet",
            "javet-v8-linux-x86_64",
            "postgresql",
            "mysql-connector-j",
            "mongodb-driver-sync",
            "bson",
            "jedis",
            "commons-pool2",
            "sqlite-jdbc")
        .doesNotContain("guava", "google-auth-library-oauth2-http", "typescript", "linux-x64");
    assertThat(built).contains("jars: core, sqlite, postgres, mysql, mongodb, redis, scripts)");
    try (Served served = serve(dist)) {
      StatelessMcpClient mcp = new StatelessMcpClient(served.baseUrl());
      assertThat(call(mcp, "pg_next", "{\"n\":41}")).contains("\"next\":42");
      assertThat(call(mcp, "my_next", "{\"n\":41}")).contains("\"next\":42");
      assertThat(call(mcp, "mongo_count", "{}")).contains("\"isError\":false");
      assertThat(call(mcp, "kv_put", "{\"value\":\"stored\"}")).contains("\"isError\":false");
      assertThat(call(mcp, "kv_get", "{}")).contains("stored");
      assertThat(call(mcp, "lite_one", "{}")).contains("\"one\":1");
      assertThat(call(mcp, "lite_one", "{}")).contains("\"one\":1");
      assertThat(call(mcp, "shout", "{\"text\":\"jars\"}")).contains("JARS!");
      assertTheTaskStoreKnowsNoSuchTask(served); // on PostgreSQL
      assertThat(served.output()).doesNotContain("NoClassDefFoundError", "Exception");
    }
  }

  @Test
  void sharedStateOnRedisAloneNeedsNoPostgresDriver() throws Exception {
    Path dist =
        build(
            """
            == .svc
            name: redis-state
            agents:
              tasks:
                store: state
            tools:
              rate_limit:
                requests: 1000
                per: 60s
                store: state
              cache:
                store: state
            == app/adapters/state.terse
            connector: redis
            connection_string: "%s"
            == app/adapters/lite.terse
            connector: sqlite
            connection_string: ":memory:"
            == app/tools/lite_one/config.terse
            description: One, counted and cached in Redis.
            use: lite
            statement: SELECT 1 AS one
            cache:
              enabled: true
              ttl: 60
            == app/agents/helper/config.terse
            instruction: Help.
            model:
              provider: openai_compatible
              model: small
              options:
                base_url: http://127.0.0.1:9/v1
            """
                .formatted(REDIS.connectionString(7)),
            false);

    assertThat(jars(dist)).contains("jedis", "sqlite-jdbc").doesNotContain("postgresql", "javet");
    try (Served served = serve(dist)) {
      StatelessMcpClient mcp = new StatelessMcpClient(served.baseUrl());
      assertThat(call(mcp, "lite_one", "{}")).contains("\"one\":1");
      assertThat(call(mcp, "lite_one", "{}")).contains("\"one\":1");
      // counted and cached in Redis
      assertThat(TestRedis.text(REDIS.run(7, "KEYS", "svc:rl:lite_one:*"))).isNotEqualTo("[]");
      assertThat(TestRedis.text(REDIS.run(7, "KEYS", "svc:cache:redis-state:lite_one:*")))
          .isNotEqualTo("[]");
      assertTheTaskStoreKnowsNoSuchTask(served); // on Redis
      assertThat(served.output()).doesNotContain("NoClassDefFoundError", "Exception");
    }
  }

  @Test
  void aVertexAgentSignsInWithGooglesLibraryFromItsArtifact() throws Exception {
    try (ScriptedModelServer model = ScriptedModelServer.start()) {
      Path dist =
          build(
              """
              == .svc
              name: on-vertex
              == app/agents/vx/config.terse
              instruction: You are on Vertex.
              model:
                provider: vertex
                model: gemini-2.5-pro
                options:
                  base_url: %s/v1
                  project: my-proj
                  location: europe-west4
              """
                  .formatted(model.url()),
              false);
      assertThat(jars(dist))
          .contains("google-auth-library-oauth2-http", "guava", "google-http-client-gson")
          .doesNotContain("sqlite-jdbc", "javet", "jedis");
      assertThat(built).contains("jars: core, google-sign-in)");
      Path key = GoogleServiceAccount.write(work.resolve("sa.json"), model.url() + "/token");
      model.json(
          "{\"access_token\":\"ya29.test-token\",\"expires_in\":3600,\"token_type\":\"Bearer\"}");
      model.json(GeminiReplies.text("From Vertex."));

      try (Served served = serve(dist, Map.of("GOOGLE_APPLICATION_CREDENTIALS", key.toString()));
          A2aFixture a2a = A2aFixture.at(served.baseUrl(), () -> {})) {
        JsonNode task =
            a2a.result(
                    "vx",
                    "SendMessage",
                    "{\"message\":{\"messageId\":\"m1\",\"role\":\"ROLE_USER\","
                        + "\"parts\":[{\"text\":\"hi\"}]}}")
                .path("task");
        assertThat(task.path("status").path("state").asString())
            .as(task.toString())
            .isEqualTo("TASK_STATE_COMPLETED");
        assertThat(model.request(1).header("Authorization")).isEqualTo("Bearer ya29.test-token");
        assertThat(served.output()).doesNotContain("NoClassDefFoundError", "Exception");
      }
    }
  }

  @Test
  void openTelemetryTurnsOnInAnArtifactOfTheCoreAlone() throws Exception {
    Path dist =
        build(
            """
            == .svc
            name: traced
            == app/adapters/db.terse
            connector: sqlite
            connection_string: ":memory:"
            == app/tools/one/config.terse
            description: One.
            use: db
            statement: SELECT 1 AS one
            """,
            false);

    // a collector that is not there: spans are exported in the background and dropped
    try (Served served =
        serve(
            dist,
            Map.of(
                "OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:9",
                "OTEL_BSP_SCHEDULE_DELAY", "100"))) {
      StatelessMcpClient mcp = new StatelessMcpClient(served.baseUrl());
      assertThat(call(mcp, "one", "{}")).contains("\"one\":1");
      Thread.sleep(500);
      assertThat(call(mcp, "one", "{}")).contains("\"one\":1");
      assertThat(served.output())
          .contains("OpenTelemetry export on")
          .doesNotContain("NoClassDefFoundError", "ClassNotFoundException", "OpenTelemetry is off");
    }
  }

  /** The agent {@code helper}'s task store answers a {@code GetTask}: no such task. */
  private static void assertTheTaskStoreKnowsNoSuchTask(Served served) {
    try (A2aFixture a2a = A2aFixture.at(served.baseUrl(), () -> {})) {
      assertThat(
              a2a.rpc("helper", "GetTask", "{\"id\":\"no-such-task\"}")
                  .path("error")
                  .path("code")
                  .asInt())
          .isEqualTo(-32001);
    }
  }

  private String call(StatelessMcpClient mcp, String tool, String arguments) {
    McpHttpClient.Reply reply =
        mcp.post("tools/call", "{\"name\":\"" + tool + "\",\"arguments\":" + arguments + "}");
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    assertThat(reply.body()).as(tool).contains("\"isError\":false");
    return reply.body();
  }

  /** Builds the project, with its start-up cache when {@code aot}; fails on any warning. */
  private Path build(String project, boolean aot) throws IOException {
    Path source = ProjectFixture.write(work.resolve("project"), project);
    Path dist = work.resolve("dist");
    List<String> args = new ArrayList<>(List.of("build", source.toString(), "-o", dist.toString()));
    if (!aot) {
      args.add("--no-aot");
    }
    CliRun build = CliRun.svc(work, args.toArray(String[]::new));
    assertThat(build.exitCode()).as(build.err()).isZero();
    assertThat(build.err()).as("the build's warnings").doesNotContain("warning");
    built = build.out();
    if (aot) {
      assertThat(dist.resolve("lib/svc.aot")).isRegularFile();
    }
    return dist;
  }

  /** The artifact ids of the jars in the artifact's {@code lib/lib}. */
  private static List<String> jars(Path dist) throws IOException {
    try (Stream<Path> files = Files.list(dist.resolve("lib/lib"))) {
      return files
          .map(file -> RuntimeLibraries.artifactId(file.getFileName().toString()))
          .sorted()
          .toList();
    }
  }

  /** The artifact served by its own launcher ({@code ./svc serve}), on a free port. */
  private Served serve(Path dist) throws IOException, InterruptedException {
    return serve(dist, Map.of());
  }

  /** {@link #serve(Path)} with these variables added to its environment. */
  private Served serve(Path dist, Map<String, String> environment)
      throws IOException, InterruptedException {
    Path output = work.resolve("serve.out");
    ProcessBuilder launcher =
        new ProcessBuilder(dist.resolve("svc").toString(), "serve", "-p", "0")
            .directory(dist.toFile())
            .redirectErrorStream(true)
            .redirectOutput(output.toFile());
    launcher.environment().putAll(environment);
    Process process = launcher.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      Matcher serving = SERVING.matcher(Files.readString(output));
      if (serving.find()) {
        return new Served(process, output, serving.group(1));
      }
      if (!process.isAlive()) {
        break;
      }
      Thread.sleep(50);
    }
    process.destroyForcibly();
    throw new AssertionError("the artifact did not serve:\n" + Files.readString(output));
  }

  private record Served(Process process, Path out, String baseUrl) implements AutoCloseable {
    String output() throws IOException {
      return Files.readString(out);
    }

    @Override
    public void close() {
      process.destroy();
      try {
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        process.destroyForcibly();
        return;
      }
      assertThat(process.exitValue()).as("exit code after SIGTERM").isZero();
    }
  }
}
