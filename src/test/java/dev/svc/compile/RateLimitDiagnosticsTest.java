package dev.svc.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import dev.svc.model.Model;
import dev.svc.model.RateLimit;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code rate_limit}, global and per tool: what it compiles to, and each mistake's report. */
class RateLimitDiagnosticsTest {
  @TempDir Path dir;

  static final String ROOT =
      """
      == .svc
      name: shop
      tools:
        rate_limit: {requests: 60, per: 60s}
      """;

  static String tool(String name, String extra) {
    return "== app/tools/"
        + name
        + "/config.terse\ndescription: A tool.\nhandler: handler.ts\n"
        + extra
        + "== app/tools/"
        + name
        + "/handler.ts\nexport default () => 1;\n";
  }

  @Test
  void toolsInheritTheGlobalLimitOverrideWhatTheySetAndCanBeExempted() {
    Model model =
        ProjectFixture.model(
            dir,
            ROOT
                + tool("plain", "")
                + tool("strict", "rate_limit: {requests: 5}\n")
                + tool("slow", "rate_limit: {per: 1h}\n")
                + tool("fast", "rate_limit: {requests: 2, per: 500ms}\n")
                + tool("free", "rate_limit: {enabled: false}\n"));
    assertThat(model.tool("plain").orElseThrow().rateLimit())
        .contains(new RateLimit(60, Duration.ofSeconds(60)));
    assertThat(model.tool("strict").orElseThrow().rateLimit())
        .contains(new RateLimit(5, Duration.ofSeconds(60)));
    assertThat(model.tool("slow").orElseThrow().rateLimit())
        .contains(new RateLimit(60, Duration.ofHours(1)));
    assertThat(model.tool("fast").orElseThrow().rateLimit())
        .contains(new RateLimit(2, Duration.ofMillis(500)));
    assertThat(model.tool("free").orElseThrow().rateLimit()).isEmpty();
  }

  @Test
  void withoutAGlobalLimitToolsHaveNoneUnlessTheySetTheirOwn() {
    Model model =
        ProjectFixture.model(
            dir,
            "== .svc\nname: shop\n"
                + tool("plain", "")
                + tool("own", "rate_limit: {requests: 3, per: 10}\n"));
    assertThat(model.tool("plain").orElseThrow().rateLimit()).isEmpty();
    assertThat(model.tool("own").orElseThrow().rateLimit())
        .contains(new RateLimit(3, Duration.ofSeconds(10)));
  }

  static Stream<Arguments> rules() {
    return Stream.of(
        argumentSet(
            "zero requests is an error",
            ROOT + tool("t", "rate_limit: {requests: 0}\n"),
            """
            app/tools/t/config.terse:3:24: error[invalid-rate-limit]: `requests` is 0; it must be at least 1
            1 error, 0 warnings
            """),
        argumentSet(
            "a negative number of requests is an error",
            ROOT + tool("t", "rate_limit:\n  requests: -5\n"),
            """
            app/tools/t/config.terse:4:13: error[invalid-rate-limit]: `requests` is -5; it must be at least 1
            1 error, 0 warnings
            """),
        argumentSet(
            "a window that is not a duration is an error",
            ROOT + tool("t", "rate_limit: {requests: 5, per: soon}\n"),
            """
            app/tools/t/config.terse:3:32: error[invalid-rate-limit]: `per` must be a duration of at least 1ms, found `soon`
              hint: write seconds (`60`) or a number with `ms`, `s`, `m` or `h` (`500ms`, `30s`, `1m`, `1h`), at most 24h
            1 error, 0 warnings
            """),
        argumentSet(
            "a zero window is an error",
            "== .svc\nname: shop\ntools:\n  rate_limit: {requests: 5, per: 0s}\n" + tool("t", ""),
            """
            .svc:3:34: error[invalid-rate-limit]: `per` must be a duration of at least 1ms, found `0s`
              hint: write seconds (`60`) or a number with `ms`, `s`, `m` or `h` (`500ms`, `30s`, `1m`, `1h`), at most 24h
            1 error, 0 warnings
            """),
        argumentSet(
            "a window longer than a day is an error",
            ROOT + tool("t", "rate_limit: {per: 25h}\n"),
            """
            app/tools/t/config.terse:3:19: error[invalid-rate-limit]: `per` is longer than a day: `25h`
              hint: write seconds (`60`) or a number with `ms`, `s`, `m` or `h` (`500ms`, `30s`, `1m`, `1h`), at most 24h
            1 error, 0 warnings
            """),
        argumentSet(
            "a tool's limit without requests and no global one is an error",
            "== .svc\nname: shop\n" + tool("t", "rate_limit: {per: 10s}\n"),
            """
            app/tools/t/config.terse:3:13: error[missing-field]: `rate_limit` has no `requests`
              hint: add `requests:` (the most calls one caller makes per window), or `enabled: false`
            1 error, 0 warnings
            """),
        argumentSet(
            "an unknown key in a tool's rate_limit is an error with a did-you-mean",
            ROOT + tool("t", "rate_limit: {request: 5}\n"),
            """
            app/tools/t/config.terse:3:14: error[unknown-key]: unknown key `request` in the tool `rate_limit`
              hint: did you mean `requests`?
            1 error, 0 warnings
            """),
        argumentSet(
            "an unknown key in the global rate_limit is a warning",
            "== .svc\nname: shop\ntools:\n  rate_limit: {requests: 5, window: 10s}\n"
                + tool("t", ""),
            """
            .svc:3:29: warning[unknown-key]: unknown key `window` in the root configuration `tools.rate_limit` (ignored)
              hint: known keys: enabled, requests, per, store
            0 errors, 1 warning
            """),
        argumentSet(
            "a store naming no adapter is an error with a did-you-mean",
            "== .svc\nname: shop\ntools:\n  rate_limit: {requests: 5, store: limit}\n"
                + REDIS
                + tool("t", ""),
            """
            .svc:3:36: error[unknown-adapter]: `tools.rate_limit.store` names no adapter: `limit`
              hint: did you mean `limits`?
            1 error, 0 warnings
            """),
        argumentSet(
            "a store on a project without adapters says where to define one",
            "== .svc\nname: shop\ntools:\n  rate_limit:\n    requests: 5\n    store: limits\n"
                + tool("t", ""),
            """
            .svc:5:12: error[unknown-adapter]: `tools.rate_limit.store` names no adapter: `limits`
              hint: define a redis adapter in app/adapters/limits.terse
            1 error, 0 warnings
            """),
        argumentSet(
            "a store on an adapter other than redis is unsupported",
            "== .svc\nname: shop\ntools:\n  rate_limit: {requests: 5, store: local}\n"
                + "== app/adapters/local.terse\nconnector: sqlite\nconnection_string: \":memory:\"\n"
                + tool("t", ""),
            """
            .svc:3:36: error[unsupported-rate-limit-store]: adapter `local` is a sqlite adapter; `tools.rate_limit.store` needs a redis one
              hint: name a redis adapter, or remove `store` to count in each instance's memory
            1 error, 0 warnings
            """),
        argumentSet(
            "a store in a tool's rate_limit is an error: the store is the service's",
            ROOT + REDIS + tool("t", "rate_limit: {requests: 5, store: limits}\n"),
            """
            app/tools/t/config.terse:3:27: error[unknown-key]: unknown key `store` in the tool `rate_limit`
              hint: known keys: enabled, requests, per
            1 error, 0 warnings
            """));
  }

  static final String REDIS =
      """
      == app/adapters/limits.terse
      connector: redis
      connection_string: redis://127.0.0.1:6379/12
      """;

  @Test
  void theStoreNamesARedisAdapterForEveryToolsLimitEvenWhenTheGlobalOneIsOff() {
    Model model =
        ProjectFixture.model(
            dir,
            "== .svc\nname: shop\ntools:\n  rate_limit: {enabled: false, store: limits}\n"
                + REDIS
                + tool("own", "rate_limit: {requests: 3}\n"));
    assertThat(model.service().rateLimitStore()).contains("limits");
    assertThat(model.tool("own").orElseThrow().rateLimit())
        .contains(new RateLimit(3, RateLimit.DEFAULT_PER));
  }

  @Test
  void withoutAStoreCountsStayInMemory() {
    Model model = ProjectFixture.model(dir, ROOT + REDIS + tool("t", ""));
    assertThat(model.service().rateLimitStore()).isEmpty();
  }

  @ParameterizedTest
  @MethodSource("rules")
  void reportsExactlyWhatTheRuleSays(String files, String expected) {
    assertThat(ProjectFixture.report(dir, files)).isEqualTo(expected);
  }
}
