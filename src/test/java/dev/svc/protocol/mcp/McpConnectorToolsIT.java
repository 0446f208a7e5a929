package dev.svc.protocol.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.svc.cli.Instance;
import dev.svc.runtime.StartupException;
import dev.svc.testing.HranaTestServer;
import dev.svc.testing.InJvmMongo;
import dev.svc.testing.McpHttpClient;
import dev.svc.testing.ProjectFixture;
import dev.svc.testing.RunningProject;
import dev.svc.testing.TestRedis;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * MCP tools on MongoDB, Redis and remote libSQL adapters, end to end: a project started for real
 * with all three (checked in parallel at start), called over HTTP.
 */
class McpConnectorToolsIT {
  @RegisterExtension static final InJvmMongo mongo = new InJvmMongo();
  @RegisterExtension static final TestRedis redis = new TestRedis();

  @TempDir Path dir;

  private static final String PROJECT =
      """
      == .svc
      name: stores
      == app/adapters/docs.terse
      connector: mongodb
      connection_string: "{{ env.MONGO_URL }}"
      options:
        maxPoolSize: "4"
      == app/adapters/cache.terse
      connector: redis
      connection_string: "{{ env.REDIS_URL }}"
      options:
        pool_size: "2"
      == app/adapters/edge.terse
      connector: sqlite
      connection_string: "{{ env.LIBSQL_URL }}"
      options:
        authToken: "{{ env.LIBSQL_TOKEN }}"
        sync_interval: 5s
      == app/tools/add_person/config.terse
      description: Adds a person.
      use: docs
      statement: |
        {"database": "e2e", "command": {"insert": "people",
          "documents": [{"name": {{ inputs.name }}, "age": {{ inputs.age }}}]}}
      inputs:
        name: {type: string}
        age: {type: int}
      == app/tools/people_over/config.terse
      description: People at least a given age, youngest first.
      use: docs
      statement: |
        {"database": "e2e", "command": {"find": "people",
          "filter": {"age": {"$gte": {{ inputs.min_age }}}},
          "sort": {"age": 1}, "projection": {"_id": 0}}}
      inputs:
        min_age: {type: int}
      == app/tools/remember/config.terse
      description: Stores a note for a session.
      use: cache
      statement: HSET "PREFIXsession:{{ inputs.id }}" note {{ inputs.note }}
      inputs:
        id: {type: string}
        note: {type: string}
      == app/tools/recall/config.terse
      description: Reads a session.
      use: cache
      statement: HGETALL "PREFIXsession:{{ inputs.id }}"
      inputs:
        id: {type: string}
      == app/tools/wrong_type/config.terse
      description: Reads a hash as a list.
      use: cache
      statement: LRANGE "PREFIXsession:{{ inputs.id }}" 0 -1
      inputs:
        id: {type: string}
      == app/tools/edge_items/config.terse
      description: Items cheaper than a price.
      use: edge
      statement: SELECT name, price FROM items WHERE price < {{ inputs.max }} ORDER BY price
      inputs:
        max: {type: float}
      """;

  @Test
  void toolsOnEachConnectorAnswerOverMcp() throws Exception {
    Path remote = dir.resolve("remote.db");
    try (Connection sqlite = DriverManager.getConnection("jdbc:sqlite:" + remote);
        Statement seed = sqlite.createStatement()) {
      seed.executeUpdate("CREATE TABLE items (name TEXT, price REAL)");
      seed.executeUpdate("INSERT INTO items VALUES ('pen', 1.5), ('book', 12.0), ('mug', 6.25)");
    }
    try (HranaTestServer libsql = new HranaTestServer(remote, Set.of(2, 3), Optional.of("tok"));
        Instance instance =
            RunningProject.start(
                dir.resolve("project"),
                PROJECT.replace("PREFIX", redis.prefix()),
                Map.of(
                    "MONGO_URL", mongo.connectionString(),
                    "REDIS_URL", redis.connectionString(2),
                    "LIBSQL_URL", libsql.baseUrl(),
                    "LIBSQL_TOKEN", "tok"))) {
      McpHttpClient client = new McpHttpClient(instance.baseUrl());
      client.initialize();

      assertThat(structured(client.call("add_person", "{\"name\": \"Ada\", \"age\": 36}")))
          .hasToString("{\"n\":1,\"ok\":1.0}");
      client.call("add_person", "{\"name\": \"{\\\"$ne\\\": 1}\", \"age\": \"90\"}");
      assertThat(structured(client.call("people_over", "{\"min_age\": 30}")))
          .hasToString(
              "{\"rows\":[{\"name\":\"Ada\",\"age\":36},{\"name\":\"{\\\"$ne\\\": 1}\",\"age\":90}]}");

      assertThat(structured(client.call("remember", "{\"id\": \"s1\", \"note\": \"buy milk\"}")))
          .hasToString("{\"result\":1}");
      assertThat(structured(client.call("recall", "{\"id\": \"s1\"}")))
          .hasToString("{\"note\":\"buy milk\"}");
      JsonNode wrong = client.call("wrong_type", "{\"id\": \"s1\"}").path("result");
      assertThat(wrong.path("isError").asBoolean()).isTrue();
      assertThat(wrong.path("content").get(0).path("text").asString())
          .isEqualTo("WRONGTYPE Operation against a key holding the wrong kind of value");

      assertThat(structured(client.call("edge_items", "{\"max\": 10}")))
          .hasToString(
              "{\"rows\":[{\"name\":\"pen\",\"price\":1.5},{\"name\":\"mug\",\"price\":6.25}]}");
      assertThat(libsql.pipelines().getLast().uri().getRawQuery()).isEqualTo("sync_interval=5s");
    }
    assertThat(TestRedis.text(redis.run(2, "HGET", redis.prefix() + "session:s1", "note")))
        .isEqualTo("buy milk");
  }

  @Test
  void aWebsocketUrlFromTheEnvironmentStopsTheStartAsAnUnsupportedScheme() {
    StartupException failure =
        catchThrowableOfType(
            StartupException.class,
            () ->
                RunningProject.start(
                        dir,
                        """
                        == .svc
                        name: ws
                        == app/adapters/edge.terse
                        connector: sqlite
                        connection_string: "{{ env.LIBSQL_URL }}"
                        == app/tools/one/config.terse
                        description: One.
                        use: edge
                        statement: SELECT 1
                        """,
                        Map.of("LIBSQL_URL", "wss://db.example.io"))
                    .close());

    assertThat(failure.problems().stream().map(ProjectFixture::line))
        .containsExactly(
            "adapter edge: error[unsupported-scheme]: sqlite adapter `edge` uses the unsupported"
                + " scheme `wss://`; use libsql://, https:// or http:// for a remote database");
  }

  @Test
  void anUnreachableRedisStopsTheStartSayingWhy() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    int closed = port;
    StartupException failure =
        catchThrowableOfType(
            StartupException.class,
            () ->
                RunningProject.start(
                        dir,
                        """
                        == .svc
                        name: down
                        == app/adapters/cache.terse
                        connector: redis
                        connection_string: "{{ env.REDIS_URL }}"
                        == app/tools/get/config.terse
                        description: Gets a key.
                        use: cache
                        statement: GET k
                        """,
                        Map.of("REDIS_URL", "redis://127.0.0.1:" + closed + "/0"))
                    .close());

    assertThat(failure.problems().stream().map(ProjectFixture::line))
        .containsExactly(
            "adapter cache: error[adapter-unavailable]: cannot connect to redis adapter `cache` at"
                + " 127.0.0.1:"
                + closed
                + "/0: connection refused");
  }

  private static JsonNode structured(JsonNode response) {
    JsonNode result = response.path("result");
    assertThat(result.path("isError").asBoolean()).as(response.toString()).isFalse();
    return result.path("structuredContent");
  }
}
