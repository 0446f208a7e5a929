package dev.svc.protocol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.Instance;
import dev.svc.testing.McpHttpClient;
import dev.svc.testing.RunningProject;
import dev.svc.testing.StatelessMcpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Rate limits of {@code tools/call} over real HTTP, on both MCP revisions: 60 calls per minute per
 * caller and tool, a tool with its own limit, and a tool exempt from it. Every call comes from
 * 127.0.0.1 without a verified token, so all are one caller: each test calls tools of its own, so
 * that their windows do not meet.
 */
class RateLimitIT {
  @TempDir static Path dir;

  static Instance instance;
  static McpHttpClient session;
  static StatelessMcpClient stateless;

  private static final String PROJECT =
      """
      == .svc
      name: limits
      tools:
        rate_limit: {requests: 60, per: 60s}
      == app/adapters/lite.terse
      connector: sqlite
      connection_string: "file:./lite.db"
      == app/tools/hit/config.terse
      description: Records a hit.
      use: lite
      statement: INSERT INTO hits DEFAULT VALUES
      == app/tools/hit_too/config.terse
      description: Records a hit too.
      use: lite
      statement: INSERT INTO hits DEFAULT VALUES
      == app/tools/hits/config.terse
      description: Counts the hits.
      use: lite
      statement: SELECT count(*) AS n FROM hits
      rate_limit: {enabled: false}
      == app/tools/scarce/config.terse
      description: A tool two calls a minute.
      use: lite
      statement: SELECT 1 AS one
      rate_limit: {requests: 2}
      == app/tools/scarce_stream/config.terse
      description: A tool two calls a minute.
      use: lite
      statement: SELECT 1 AS one
      rate_limit: {requests: 2}
      == app/tools/scarce_keys/config.terse
      description: A tool two calls a minute.
      use: lite
      statement: SELECT 1 AS one
      rate_limit: {requests: 2}
      == app/tools/scarce_open/config.terse
      description: A tool two calls a minute, open to all.
      use: lite
      statement: SELECT 1 AS one
      rate_limit: {requests: 2}
      auth:
        plugin: allow_all
      == app/tools/scarce_keyed/config.terse
      description: A tool two calls a minute, for the holder of its key.
      use: lite
      statement: SELECT 1 AS one
      rate_limit: {requests: 2}
      auth:
        plugin: api_key
        policy: {value: the-one-key}
      == app/tools/scarce_custom/config.terse
      description: A tool two calls a minute, for the holder of its key, by a plugin of its own.
      use: lite
      statement: SELECT 1 AS one
      rate_limit: {requests: 2}
      auth:
        plugin: one_key
        policy: {value: the-one-key}
      == app/plugins/one_key.ts
      export default ({ headers, policy }) => headers["x-api-key"] === policy.value;
      == app/tools/scarce_guarded/config.terse
      description: A tool two calls a minute, for the holder of its key.
      use: lite
      statement: SELECT 1 AS one
      rate_limit: {requests: 2}
      auth:
        plugin: api_key
        policy: {value: the-one-key}
      """;

  @BeforeAll
  static void start() throws Exception {
    Path project = dir.resolve("project");
    Files.createDirectories(project.resolve("app"));
    try (Connection lite =
            DriverManager.getConnection("jdbc:sqlite:" + project.resolve("lite.db"));
        java.sql.Statement seed = lite.createStatement()) {
      seed.executeUpdate("CREATE TABLE hits (id INTEGER PRIMARY KEY)");
    }
    instance = RunningProject.start(project, PROJECT);
    session = new McpHttpClient(instance.baseUrl());
    session.initialize();
    stateless = new StatelessMcpClient(instance.baseUrl());
  }

  @AfterAll
  static void stop() {
    if (instance != null) {
      instance.close();
    }
  }

  private static McpHttpClient.Reply sessionCall(String tool, String key) {
    return session.post(
        session.requestBody("tools/call", "{\"name\":\"" + tool + "\",\"arguments\":{}}"),
        "Accept",
        "application/json",
        "X-API-Key",
        key);
  }

  private static McpHttpClient.Reply statelessCall(String tool, String key) {
    return stateless.post(
        "tools/call", "{\"name\":\"" + tool + "\",\"arguments\":{}}", "X-API-Key", key);
  }

  private static long hits() {
    McpHttpClient.Reply reply = statelessCall("hits", "counter");
    assertThat(reply.status()).isEqualTo(200);
    JsonNode n = reply.json().path("result").path("structuredContent").findValue("n");
    assertThat(n).as("the count in %s", reply.body()).isNotNull();
    return n.asLong();
  }

  /**
   * 60 calls of {@code tool} in a row pass; the 61st is refused with 429 and the headers; the tool
   * did not run.
   */
  private static void theSixtyFirstCallIsRefused(
      String tool, Function<String, McpHttpClient.Reply> call, String key) {
    long before = hits();
    for (int i = 1; i <= 60; i++) {
      McpHttpClient.Reply ok = call.apply(key);
      assertThat(ok.status()).as("call %d", i).isEqualTo(200);
      assertThat(ok.json().has("error")).as("call %d", i).isFalse();
      assertThat(ok.header("RateLimit-Policy")).contains("\"" + tool + "\";q=60;w=60");
      assertThat(ok.header("RateLimit").orElseThrow())
          .startsWith("\"" + tool + "\";r=" + (60 - i) + ";t=");
      assertThat(ok.header("Retry-After")).isEmpty();
    }
    McpHttpClient.Reply refused = call.apply(key);
    assertThat(refused.status()).isEqualTo(429);
    long retryAfter = Long.parseLong(refused.header("Retry-After").orElseThrow());
    assertThat(retryAfter).isBetween(1L, 60L);
    assertThat(refused.header("RateLimit-Policy")).contains("\"" + tool + "\";q=60;w=60");
    assertThat(refused.header("RateLimit")).contains("\"" + tool + "\";r=0;t=" + retryAfter);
    JsonNode error = refused.json().path("error");
    assertThat(error.path("code").asInt()).isEqualTo(429);
    assertThat(error.path("message").asString())
        .startsWith("Rate limit exceeded: tool `" + tool + "`");
    assertThat(error.path("data").path("retryAfterSeconds").asLong()).isEqualTo(retryAfter);
    assertThat(refused.json().path("id").isNumber()).isTrue();
    assertThat(hits()).isEqualTo(before + 60);

    McpHttpClient.Reply another = call.apply(key + "-another");
    assertThat(another.status()).as("another unverified key is the same caller").isEqualTo(429);
  }

  @Test
  void theSixtyFirstSessionCallInAMinuteGets429() {
    theSixtyFirstCallIsRefused("hit", key -> sessionCall("hit", key), "session-alice");
  }

  @Test
  void theSixtyFirstStatelessCallInAMinuteGets429() {
    theSixtyFirstCallIsRefused("hit_too", key -> statelessCall("hit_too", key), "stateless-alice");
  }

  @Test
  void aNewApiKeyOrTokenWithEachCallIsStillTheSameCaller() {
    assertThat(statelessCall("scarce_keys", "first").status()).isEqualTo(200);
    assertThat(sessionCall("scarce_keys", "second").status()).isEqualTo(200);
    assertThat(statelessCall("scarce_keys", "third").status()).isEqualTo(429);
    assertThat(
            stateless
                .post(
                    "tools/call",
                    "{\"name\":\"scarce_keys\",\"arguments\":{}}",
                    "Authorization",
                    "Bearer made-up")
                .status())
        .isEqualTo(429);
  }

  @Test
  void anAllowAllToolChecksNoKeySoANewKeyWithEachCallIsStillTheSameCaller() {
    // allow_all lets every call in without looking at a key: made-up keys are no callers
    assertThat(statelessCall("scarce_open", "open-1").status()).isEqualTo(200);
    assertThat(sessionCall("scarce_open", "open-2").status()).isEqualTo(200);
    assertThat(statelessCall("scarce_open", "open-3").status()).isEqualTo(429);
  }

  @Test
  void aHeaderTheToolsPluginDoesNotCheckMakesNoNewCaller() {
    // api_key checks X-API-Key alone: a new Authorization value with each call is made up
    for (int i = 1; i <= 2; i++) {
      assertThat(
              stateless
                  .post(
                      "tools/call",
                      "{\"name\":\"scarce_keyed\",\"arguments\":{}}",
                      "X-API-Key",
                      "the-one-key",
                      "Authorization",
                      "Bearer made-up-" + i)
                  .status())
          .as("call %d", i)
          .isEqualTo(200);
    }
    // before: 200, a caller (and a window) of its own for each Authorization value
    assertThat(
            stateless
                .post(
                    "tools/call",
                    "{\"name\":\"scarce_keyed\",\"arguments\":{}}",
                    "X-API-Key",
                    "the-one-key",
                    "Authorization",
                    "Bearer made-up-3")
                .status())
        .isEqualTo(429);
  }

  @Test
  void madeUpKeysCountForTheAddressTheyComeFromAndOpenNoWindowsOfTheirOwn() {
    for (int i = 1; i <= 2; i++) {
      McpHttpClient.Reply refused = statelessCall("scarce_guarded", "guess-" + i);
      assertThat(refused.status()).as("guess %d", i).isEqualTo(200);
      assertThat(refused.body()).contains("authentication failed: invalid API key");
    }
    // before: a window of its own for every made-up key (in Redis, a key each until its window
    // ends), and never a 429: a client spraying guesses was not limited at all
    assertThat(statelessCall("scarce_guarded", "guess-3").status()).isEqualTo(429);
    // the holder of the key, from the same address, is a caller of its own
    assertThat(statelessCall("scarce_guarded", "the-one-key").status()).isEqualTo(200);
  }

  @Test
  void keysAPluginOfTheProjectsOwnHasNotAdmittedCountForTheAddressTheyComeFrom() {
    // the holder's first call: the plugin has not admitted the key yet (only running it could
    // tell a made-up key from a real one), so it counts for the address: one of two
    McpHttpClient.Reply first = statelessCall("scarce_custom", "the-one-key");
    assertThat(first.status()).isEqualTo(200);
    assertThat(first.json().path("result").path("isError").asBoolean()).isFalse();
    McpHttpClient.Reply guess = statelessCall("scarce_custom", "guess-1");
    assertThat(guess.status()).isEqualTo(200);
    assertThat(guess.body()).contains("authentication failed: the auth plugin `one_key` refused");
    // before: a window of its own for every made-up key, and never a 429
    assertThat(statelessCall("scarce_custom", "guess-2").status()).isEqualTo(429);
    assertThat(statelessCall("scarce_custom", "guess-3").status()).isEqualTo(429);
    // the key the plugin admitted is a caller of its own: two calls in its own window
    assertThat(statelessCall("scarce_custom", "the-one-key").status()).isEqualTo(200);
    assertThat(sessionCall("scarce_custom", "the-one-key").status()).isEqualTo(200);
    assertThat(statelessCall("scarce_custom", "the-one-key").status()).isEqualTo(429);
  }

  @Test
  void aToolWithItsOwnLimitUsesIt() {
    assertThat(statelessCall("scarce", "own-limit").status()).isEqualTo(200);
    McpHttpClient.Reply second = sessionCall("scarce", "own-limit");
    assertThat(second.status()).isEqualTo(200);
    assertThat(second.header("RateLimit-Policy")).contains("\"scarce\";q=2;w=60");
    assertThat(second.header("RateLimit").orElseThrow()).startsWith("\"scarce\";r=0;");
    McpHttpClient.Reply third = statelessCall("scarce", "own-limit");
    assertThat(third.status()).isEqualTo(429);
    assertThat(third.json().path("error").path("data").path("retryAfterSeconds").asLong())
        .isBetween(1L, 60L);
  }

  @Test
  void anExemptToolHasNoLimitAndNoHeaders() {
    for (int i = 0; i < 70; i++) {
      assertThat(statelessCall("hits", "exempt").status()).isEqualTo(200);
    }
    assertThat(statelessCall("hits", "exempt").header("RateLimit")).isEmpty();
  }

  @Test
  void aClientThatAcceptsOnlyAStreamIsStillToldWithA429() {
    for (int i = 0; i < 2; i++) {
      sessionCall("scarce_stream", "stream-only");
    }
    McpHttpClient.Reply refused =
        session.post(
            session.requestBody("tools/call", "{\"name\":\"scarce_stream\",\"arguments\":{}}"),
            "Accept",
            "text/event-stream",
            "X-API-Key",
            "stream-only");
    assertThat(refused.status()).isEqualTo(429);
    assertThat(refused.header("Retry-After")).isPresent();
    assertThat(refused.json().path("error").path("code").asInt()).isEqualTo(429);
  }
}
