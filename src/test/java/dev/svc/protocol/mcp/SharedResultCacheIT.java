package dev.svc.protocol.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.svc.cli.Instance;
import dev.svc.model.Model;
import dev.svc.runtime.StartupException;
import dev.svc.telemetry.SvcMetrics;
import dev.svc.testing.McpHttpClient;
import dev.svc.testing.ProjectFixture;
import dev.svc.testing.RunningProject;
import dev.svc.testing.StatelessMcpClient;
import dev.svc.testing.TcpProxy;
import dev.svc.testing.TestRedis;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Svc instances whose {@code tools.cache.store} names the same Redis database (13) share their
 * cached results, over real HTTP. The tools read a Redis key the test changes between calls: an
 * answer that did not follow the change came from the cache. The service's name is unique to the
 * run, so its cache keys ({@code svc:cache:<service>:…}) are this class's own; they are deleted
 * after it. One test starts an instance that reaches the store through a proxy it cuts. The callers
 * of the tool with auth are API keys, one per instance, rather than a script plugin: three
 * instances with script plugins in one JVM crash V8 (on main too), which this class does not need.
 */
class SharedResultCacheIT {
  static final int DATABASE = 13;

  @RegisterExtension static final TestRedis redis = new TestRedis();
  @TempDir static Path dir;

  static final String SERVICE =
      "cached_" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
  static Instance first;
  static Instance second;
  static Instance third;

  static String project(String storeUrl) {
    return """
    == .svc
    name: %s
    tools:
      cache: {enabled: true, ttl: 60, store: results}
    == app/adapters/results.terse
    connector: redis
    connection_string: "%s"
    == app/adapters/data.terse
    connector: redis
    connection_string: "%s"
    == app/tools/forecast/config.terse
    description: Reads a forecast.
    use: data
    statement: GET {{ inputs.key }}
    inputs:
      key: {type: string}
    == app/tools/brief/config.terse
    description: Reads a forecast kept for a second.
    use: data
    statement: GET {{ inputs.key }}
    inputs:
      key: {type: string}
    cache: {ttl: 1}
    == app/tools/mine/config.terse
    description: Reads a forecast for the caller.
    use: data
    statement: GET {{ inputs.key }}
    inputs:
      key: {type: string}
    auth:
      plugin: api_key
      policy:
        value: "{{ env.CALLER_KEY }}"
    """
        .formatted(SERVICE, storeUrl, redis.connectionString(DATABASE));
  }

  @BeforeAll
  static void start() throws Exception {
    // each instance lets in one caller of `mine`: alice on the first and third, bob on the second
    first =
        RunningProject.start(
            dir.resolve("first"),
            project(redis.connectionString(DATABASE)),
            Map.of("CALLER_KEY", "alice-key"));
    second =
        RunningProject.start(
            dir.resolve("second"),
            project(redis.connectionString(DATABASE)),
            Map.of("CALLER_KEY", "bob-key"));
    third =
        RunningProject.start(
            dir.resolve("third"),
            project(redis.connectionString(DATABASE)),
            Map.of("CALLER_KEY", "alice-key"));
  }

  @AfterAll
  static void stop() throws Exception {
    for (Instance instance : new Instance[] {first, second, third}) {
      if (instance != null) {
        instance.close();
      }
    }
    List<?> page =
        (List<?>)
            redis.run(
                DATABASE, "SCAN", "0", "MATCH", "svc:cache:" + SERVICE + ":*", "COUNT", "100000");
    for (Object key : (List<?>) page.get(1)) {
      redis.run(DATABASE, "DEL", TestRedis.text(key));
    }
  }

  /** The text the tool answered, or the error. */
  static String call(Instance instance, String tool, String key, String... headers) {
    McpHttpClient.Reply reply =
        new StatelessMcpClient(instance.baseUrl())
            .post(
                "tools/call",
                "{\"name\":\"" + tool + "\",\"arguments\":{\"key\":\"" + key + "\"}}",
                headers);
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    JsonNode result = reply.json().path("result");
    assertThat(result.path("isError").asBoolean(false)).as(reply.body()).isFalse();
    return result.path("content").path(0).path("text").asString();
  }

  static void set(String key, String value) {
    redis.run(DATABASE, "SET", key, value);
  }

  @Test
  void aResultOneInstanceCachedIsAnsweredByTheOther() {
    String key = redis.prefix() + "shared";
    set(key, "sunny");
    assertThat(call(first, "forecast", key)).contains("sunny");

    set(key, "rain");

    assertThat(call(second, "forecast", key)).as("a hit: cached by the first").contains("sunny");
    assertThat(call(first, "forecast", key + "x"))
        .as("other inputs: a miss")
        .doesNotContain("sunny");
  }

  @Test
  void aCachedResultExpiresWithItsToolsTtlOnEveryInstance() throws InterruptedException {
    String key = redis.prefix() + "brief";
    set(key, "sunny");
    assertThat(call(first, "brief", key)).contains("sunny");
    set(key, "rain");
    assertThat(call(second, "brief", key)).contains("sunny");

    Thread.sleep(1300);

    assertThat(call(second, "brief", key)).contains("rain");
  }

  @Test
  void callersOfAToolWithAuthNeverSeeEachOthersCachedResults() {
    String key = redis.prefix() + "mine";
    set(key, "sunny");
    assertThat(call(first, "mine", key, "X-API-Key", "alice-key")).contains("sunny");

    set(key, "rain");

    assertThat(call(second, "mine", key, "X-API-Key", "bob-key"))
        .as("not alice's")
        .contains("rain");
    assertThat(call(third, "mine", key, "X-API-Key", "alice-key"))
        .as("alice's own, cached by the first")
        .contains("sunny");
  }

  @Test
  void whenTheStoreIsCutCallsStillSucceedUncachedAndAreCounted() throws Exception {
    String key = redis.prefix() + "cut";
    set(key, "sunny");
    try (TcpProxy proxy = TcpProxy.to(redis.host(), redis.port());
        Instance behindProxy =
            RunningProject.start(
                dir.resolve("behind-proxy"),
                project("redis://127.0.0.1:" + proxy.port() + "/" + DATABASE),
                Map.of("CALLER_KEY", "alice-key"))) {
      assertThat(call(behindProxy, "forecast", key)).contains("sunny");
      set(key, "rain");
      assertThat(call(behindProxy, "forecast", key))
          .as("cached through the proxy")
          .contains("sunny");

      proxy.cut();
      long lookups = SvcMetrics.CACHE_UNAVAILABLE.value("lookup");
      long stores = SvcMetrics.CACHE_UNAVAILABLE.value("store");
      for (int i = 0; i < 3; i++) {
        assertThat(call(behindProxy, "forecast", key)).as("run, not cached").contains("rain");
      }
      assertThat(SvcMetrics.CACHE_UNAVAILABLE.value("lookup") - lookups).isEqualTo(3);
      assertThat(SvcMetrics.CACHE_UNAVAILABLE.value("store") - stores).isEqualTo(3);
      assertThat(call(first, "forecast", key)).as("the others keep the cache").contains("sunny");
    }
  }

  @Test
  void anInstanceWhoseStoreCannotBeReachedStartsAndRunsItsCallsUncached() throws Exception {
    int closed;
    try (ServerSocket socket = new ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    String key = redis.prefix() + "unreachable";
    set(key, "sunny");
    try (Instance instance =
        RunningProject.start(
            dir.resolve("unreachable"),
            project("redis://127.0.0.1:" + closed + "/" + DATABASE),
            Map.of("CALLER_KEY", "alice-key"))) {
      assertThat(call(instance, "forecast", key)).contains("sunny");
      set(key, "rain");
      assertThat(call(instance, "forecast", key)).contains("rain");
    }
  }

  @Test
  void aStoreWhoseVariableIsNotSetStopsTheStartNamingItWithTheOtherMissingVariables() {
    StartupException failure =
        catchThrowableOfType(
            StartupException.class,
            () ->
                RunningProject.start(
                        dir.resolve("unset"),
                        project("{{ env.NO_SUCH_CACHE_URL }}")
                            .replace(
                                redis.connectionString(DATABASE), "{{ env.NO_SUCH_DATA_URL }}"),
                        Map.of("CALLER_KEY", "alice-key"))
                    .close());
    assertThat(failure.problems().stream().map(ProjectFixture::line))
        .containsExactlyInAnyOrder(
            "app/adapters/results.terse:2:20: error[missing-env]: environment variable"
                + " NO_SUCH_CACHE_URL is not set",
            "app/adapters/data.terse:2:20: error[missing-env]: environment variable"
                + " NO_SUCH_DATA_URL is not set");
  }

  @Test
  void afterAReloadChangesAToolItsOldResultsAreNotRead() {
    String key = redis.prefix() + "reloaded";
    set(key, "sunny");
    try (Instance instance =
        RunningProject.start(
            dir.resolve("reloaded"),
            project(redis.connectionString(DATABASE)),
            Map.of("CALLER_KEY", "alice-key"))) {
      assertThat(call(instance, "forecast", key)).contains("sunny");
      set(key, "rain");
      assertThat(call(instance, "forecast", key)).contains("sunny");

      Model changed =
          ProjectFixture.model(
              dir.resolve("reloaded-next"),
              project(redis.connectionString(DATABASE))
                  .replace("Reads a forecast.", "Reads a forecast anew."));
      instance.reload(changed, Set.of());

      assertThat(call(instance, "forecast", key)).contains("rain");
    }
  }
}
