package dev.svc.protocol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.Instance;
import dev.svc.testing.McpHttpClient;
import dev.svc.testing.RunningProject;
import dev.svc.testing.StatelessMcpClient;
import dev.svc.testing.TestRedis;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two svc instances whose {@code tools.rate_limit.store} names the same Redis database (12) count
 * one caller's calls together, over real HTTP (the caller: 127.0.0.1, which has no verified token).
 * The tool's name is unique to the run, so its keys ({@code svc:rl:<tool>:…}) are this class's own;
 * they are deleted after it.
 */
class SharedRateLimitIT {
  static final int DATABASE = 12;

  @RegisterExtension static final TestRedis redis = new TestRedis();
  @TempDir static Path dir;

  static final String TOOL =
      "shared_" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
  static Instance first;
  static Instance second;

  static String project() {
    return """
    == .svc
    name: shared
    tools:
      rate_limit: {requests: 2, per: 60s, store: limits}
    == app/adapters/limits.terse
    connector: redis
    connection_string: "%s"
    == app/tools/%s/config.terse
    description: Pings.
    use: limits
    statement: PING
    == app/tools/%s_keyed/config.terse
    description: Pings, for the holder of the key.
    use: limits
    statement: PING
    auth:
      plugin: api_key
      policy: {value: the-one-key}
    """
        .formatted(redis.connectionString(DATABASE), TOOL, TOOL);
  }

  @BeforeAll
  static void start() {
    first = RunningProject.start(dir.resolve("first"), project());
    second = RunningProject.start(dir.resolve("second"), project());
  }

  @AfterAll
  static void stop() {
    for (Instance instance : new Instance[] {first, second}) {
      if (instance != null) {
        instance.close();
      }
    }
    List<?> page =
        (List<?>)
            redis.run(DATABASE, "SCAN", "0", "MATCH", "svc:rl:" + TOOL + "*", "COUNT", "10000");
    for (Object key : (List<?>) page.get(1)) {
      redis.run(DATABASE, "DEL", TestRedis.text(key));
    }
  }

  static McpHttpClient.Reply call(Instance instance, String key) {
    return call(instance, TOOL, key);
  }

  static McpHttpClient.Reply call(Instance instance, String tool, String key) {
    return new StatelessMcpClient(instance.baseUrl())
        .post("tools/call", "{\"name\":\"" + tool + "\",\"arguments\":{}}", "X-API-Key", key);
  }

  @Test
  void madeUpKeysLeaveOneWindowInRedisNotOneEach() {
    String keyed = TOOL + "_keyed";
    for (int i = 0; i < 50; i++) {
      call(i % 2 == 0 ? first : second, keyed, "guess-" + i);
    }
    List<?> page =
        (List<?>)
            redis.run(DATABASE, "SCAN", "0", "MATCH", "svc:rl:" + keyed + ":*", "COUNT", "10000");
    // before: 50 keys, one per made-up key, each kept until its window ended (up to 24 h)
    assertThat((List<?>) page.get(1)).hasSize(1);
    assertThat(call(first, keyed, "the-one-key").status()).isEqualTo(200);
  }

  @Test
  void aCallerGetsTheLimitOnceAcrossBothInstances() {
    McpHttpClient.Reply one = call(first, "alice");
    assertThat(one.status()).isEqualTo(200);
    assertThat(one.header("RateLimit").orElseThrow()).startsWith("\"" + TOOL + "\";r=1;");
    McpHttpClient.Reply two = call(second, "alice");
    assertThat(two.status()).isEqualTo(200);
    assertThat(two.header("RateLimit").orElseThrow()).startsWith("\"" + TOOL + "\";r=0;");

    McpHttpClient.Reply refused = call(first, "alice");
    assertThat(refused.status()).isEqualTo(429);
    assertThat(Long.parseLong(refused.header("Retry-After").orElseThrow())).isBetween(1L, 60L);
    assertThat(call(second, "alice").status()).isEqualTo(429);

    // the same address with another key it made up is the same caller: keys are not verified
    assertThat(call(second, "bob").status()).isEqualTo(429);
  }
}
