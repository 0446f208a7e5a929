package dev.svc.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.call.Deadline;
import dev.svc.compile.StatementFixture;
import dev.svc.model.ConnectorKind;
import dev.svc.testing.HranaTestServer;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Remote libSQL over Hrana over HTTP against an in-test Hrana server backed by SQLite: the SQL
 * contract, then the protocol's own concerns (versions, the token, query parameters).
 */
class LibsqlConnectorIT extends SqlConnectorContract {
  private static final String TOKEN = "test-token-123";

  @TempDir Path directory;
  private HranaTestServer server;

  private HranaTestServer server() {
    if (server == null) {
      server =
          new HranaTestServer(directory.resolve("remote.db"), Set.of(2, 3), Optional.of(TOKEN));
    }
    return server;
  }

  @AfterEach
  void stopServer() {
    if (server != null) {
      server.close();
    }
  }

  @Override
  ConnectorKind kind() {
    return ConnectorKind.SQLITE;
  }

  @Override
  ResolvedAdapter adapter(Map<String, String> options) {
    Map<String, String> withToken = new HashMap<>(options);
    withToken.put("authToken", TOKEN);
    return remote(server().baseUrl(), withToken);
  }

  private ResolvedAdapter remote(String connectionString, Map<String, String> options) {
    return new ResolvedAdapter("db", ConnectorKind.SQLITE, connectionString, options, directory);
  }

  @Override
  String createItems() {
    return "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price REAL, active"
        + " BOOLEAN, created TEXT, note TEXT)";
  }

  @Override
  String readOnlyRefusal() {
    return "readonly database";
  }

  @Override
  String sleep(int seconds) {
    return "SELECT sleep(" + seconds * 1000 + ")";
  }

  @Override
  String numbers(long n) {
    return "WITH RECURSIVE s(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM s WHERE g < "
        + n
        + ") SELECT g FROM s";
  }

  @Override
  String statementQuotingItsValue() {
    return "SELECT json_extract('{}', {{ inputs.value }}) AS v";
  }

  @Override
  String messageQuotingThePlaceholder() {
    return "bad JSON path: '{{ inputs.value }}'";
  }

  // ---- the protocol -------------------------------------------------------------------------

  @Test
  void theVersionProbePrefersV3AndFallsBackToV2() throws Exception {
    for (Set<Integer> versions : List.of(Set.of(2, 3), Set.of(2), Set.of(3))) {
      try (HranaTestServer only =
              new HranaTestServer(directory.resolve("v.db"), versions, Optional.empty());
          Connector remote = Connectors.open(remote(only.baseUrl(), Map.of()))) {
        remote.check(Deadline.after(TIMEOUT));
        int expected = versions.contains(3) ? 3 : 2;

        assertThat(((LibsqlConnector) remote).version()).isEqualTo(expected);
        assertThat(only.pipelines().getLast().uri().getPath())
            .isEqualTo("/v" + expected + "/pipeline");
        assertJson(
            remote.execute(sql("SELECT 40 + 2 AS n"), Map.of(), Deadline.after(TIMEOUT)),
            "[{\"n\": 42}]");
      }
    }
  }

  @Test
  void aServerSpeakingNeitherVersionIsReported() {
    try (HranaTestServer none =
            new HranaTestServer(directory.resolve("n.db"), Set.of(), Optional.empty());
        Connector remote = Connectors.open(remote(none.baseUrl(), Map.of()))) {
      assertThatThrownBy(() -> remote.check(Deadline.after(TIMEOUT)))
          .isInstanceOf(ConnectorUnavailableException.class)
          .hasMessageEndingWith(
              "the server does not speak Hrana over HTTP v3 or v2 (GET /v3 and /v2 failed)");
    }
  }

  @Test
  void theTokenIsSentAsABearerTokenAndNeverInTheUrl() {
    connector.check(Deadline.after(TIMEOUT));

    for (HranaTestServer.Received request : server().received()) {
      assertThat(request.authorization()).contains("Bearer " + TOKEN);
      assertThat(String.valueOf(request.uri())).doesNotContain(TOKEN);
    }
  }

  @Test
  void everyTokenSpellingIsAccepted() {
    for (String key : List.of("authToken", "auth_token", "jwt")) {
      try (Connector remote = Connectors.open(remote(server().baseUrl(), Map.of(key, TOKEN)))) {
        remote.check(Deadline.after(TIMEOUT));
      }
    }
    try (Connector inUrl =
        Connectors.open(remote(server().baseUrl() + "?authToken=" + TOKEN, Map.of()))) {
      inUrl.check(Deadline.after(TIMEOUT));
    }
  }

  @Test
  void aWrongOrMissingTokenFailsTheCheckAsAuthentication() {
    try (Connector wrong =
            Connectors.open(remote(server().baseUrl(), Map.of("authToken", "nope")));
        Connector none = Connectors.open(remote(server().baseUrl(), Map.of()))) {
      assertThatThrownBy(() -> wrong.check(Deadline.after(TIMEOUT)))
          .isInstanceOf(ConnectorUnavailableException.class)
          .hasMessage(
              "cannot connect to sqlite adapter `db` at 127.0.0.1:"
                  + server().port()
                  + ": authentication failed (HTTP 401): the server refused the auth token");
      assertThatThrownBy(() -> none.check(Deadline.after(TIMEOUT)))
          .hasMessageEndingWith("the server needs an auth token (option authToken)");
    }
  }

  @Test
  void aTokenAHeaderCannotCarryIsRefusedWithoutQuotingIt() {
    // before: the HTTP client's "invalid header value: \"Bearer “TopSecret…”\"" was the start error
    try (Connector quoted =
        Connectors.open(remote(server().baseUrl(), Map.of("authToken", "“TopSecret-Turso”")))) {
      assertThatThrownBy(() -> quoted.check(Deadline.after(TIMEOUT)))
          .isInstanceOf(ConnectorUnavailableException.class)
          .hasMessageContaining("the auth token (option authToken) holds a character a header")
          .hasMessageNotContaining("TopSecret");
    }
  }

  @Test
  void otherOptionsAndSyncIntervalArePassedOnAsQueryParameters() {
    try (Connector remote =
        Connectors.open(
            remote(
                server().baseUrl() + "?mode=strict",
                Map.of("authToken", TOKEN, "sync_interval", "5s", "custom_key", "a b")))) {
      remote.check(Deadline.after(TIMEOUT));
    }

    String query = server().pipelines().getLast().uri().getRawQuery();
    assertThat(query).contains("mode=strict", "sync_interval=5s", "custom_key=a+b");
    assertThat(query).doesNotContain("authToken");
  }

  @Test
  void typedValuesTravelAsHranaArguments() {
    run("CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n)", Map.of());
    run(
        "INSERT INTO t VALUES ({{ inputs.i }}, {{ inputs.r }}, {{ inputs.s }}, x'00ff10', {{"
            + " inputs.n }})",
        values("i", 9007199254740993L, "r", 1.25, "s", "it's \"quoted\"", "n", null));

    assertJson(
        run("SELECT i, r, s, b, n, typeof(i) AS ti, typeof(r) AS tr FROM t", Map.of()),
        "[{\"i\": 9007199254740993, \"r\": 1.25, \"s\": \"it's \\\"quoted\\\"\", \"b\": \"AP8Q\","
            + " \"n\": null, \"ti\": \"integer\", \"tr\": \"real\"}]");
    String body = server().pipelines().get(server().pipelines().size() - 2).body();
    assertThat(body)
        .contains("{\"type\":\"integer\",\"value\":\"9007199254740993\"}")
        .contains("{\"type\":\"float\",\"value\":1.25}")
        .contains("{\"type\":\"null\"}")
        .contains("?"); // the SQL keeps its parameters: values are never spliced
  }

  @Test
  void anInterruptedCallIsAbandoned() throws Exception {
    connector.check(Deadline.after(TIMEOUT));
    List<Throwable> failures = new CopyOnWriteArrayList<>();
    Thread call =
        Thread.ofVirtual()
            .start(() -> {
              try {
                run(sleep(5), Map.of());
              } catch (RuntimeException e) {
                failures.add(e);
              }
            });
    Thread.sleep(300);
    call.interrupt();
    call.join(Duration.ofSeconds(10));

    assertThat(failures).hasSize(1);
    assertThat(failures.getFirst())
        .isInstanceOf(StatementFailedException.class)
        .hasMessage("the call was cancelled before the statement finished");
    assertJson(run("SELECT 5 AS five", Map.of()), "[{\"five\": 5}]");
  }

  @Test
  void manyConcurrentCallsAllSucceed() throws Exception {
    // the generic contract's concurrency check, over Hrana: each call is its own HTTP pipeline
    connector.check(Deadline.after(TIMEOUT));
    ConnectorContract.assertManyConcurrentCallsSucceed(
        connector,
        sql("SELECT count(*) AS n FROM items"),
        result -> assertJson(result, "[{\"n\": 3}]"));
  }

  @Test
  void anUnreachableServerFailsTheCheckInPlainWords() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    try (Connector remote = Connectors.open(remote("http://127.0.0.1:" + port, Map.of()))) {
      assertThatThrownBy(() -> remote.check(Deadline.after(TIMEOUT)))
          .isInstanceOf(ConnectorUnavailableException.class)
          .hasMessage(
              "cannot connect to sqlite adapter `db` at 127.0.0.1:"
                  + port
                  + ": connection refused");
    }
  }

  @Test
  void tlsZeroWithAnExplicitPortSpeaksPlainHttpToALibsqlUrl() {
    try (Connector remote =
        Connectors.open(
            remote(
                "libsql://127.0.0.1:" + server().port(), Map.of("authToken", TOKEN, "tls", "0")))) {
      remote.check(Deadline.after(TIMEOUT));
    }
  }

  private static dev.svc.model.Statement.Sql sql(String source) {
    return StatementFixture.sql(ConnectorKind.SQLITE, source);
  }
}
