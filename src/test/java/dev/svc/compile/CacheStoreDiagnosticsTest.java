package dev.svc.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import dev.svc.model.CachePolicy;
import dev.svc.model.Model;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code tools.cache.store}: what it compiles to, and each mistake's report. */
class CacheStoreDiagnosticsTest {
  @TempDir Path dir;

  static final String REDIS =
      """
      == app/adapters/shared.terse
      connector: redis
      connection_string: redis://127.0.0.1:6379/13
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

  static Stream<Arguments> rules() {
    return Stream.of(
        argumentSet(
            "a store naming no adapter is an error with a did-you-mean",
            "== .svc\nname: shop\ntools:\n  cache: {enabled: true, store: shred}\n"
                + REDIS
                + tool("t", ""),
            """
            .svc:3:33: error[unknown-adapter]: `tools.cache.store` names no adapter: `shred`
              hint: did you mean `shared`?
            1 error, 0 warnings
            """),
        argumentSet(
            "a store on a project without adapters says where to define one",
            "== .svc\nname: shop\ntools:\n  cache:\n    ttl: 30\n    store: shared\n"
                + tool("t", ""),
            """
            .svc:5:12: error[unknown-adapter]: `tools.cache.store` names no adapter: `shared`
              hint: define a redis adapter in app/adapters/shared.terse
            1 error, 0 warnings
            """),
        argumentSet(
            "a store on an adapter other than redis is unsupported",
            "== .svc\nname: shop\ntools:\n  cache: {enabled: true, store: local}\n"
                + "== app/adapters/local.terse\nconnector: sqlite\nconnection_string: \":memory:\"\n"
                + tool("t", ""),
            """
            .svc:3:33: error[unsupported-cache-store]: adapter `local` is a sqlite adapter; `tools.cache.store` needs a redis one
              hint: name a redis adapter, or remove `store` to cache in each instance's memory
            1 error, 0 warnings
            """),
        argumentSet(
            "a store in a tool's cache is an error: the store is the service's",
            "== .svc\nname: shop\n" + REDIS + tool("t", "cache: {enabled: true, store: shared}\n"),
            """
            app/tools/t/config.terse:3:24: error[unknown-key]: unknown key `store` in the tool `cache`
              hint: known keys: enabled, ttl
            1 error, 0 warnings
            """),
        argumentSet(
            "an unknown key in tools.cache lists store among the known ones",
            "== .svc\nname: shop\ntools:\n  cache: {enabled: true, stor: shared}\n"
                + REDIS
                + tool("t", ""),
            """
            .svc:3:26: warning[unknown-key]: unknown key `stor` in the root configuration `tools.cache` (ignored)
              hint: did you mean `store`?
            0 errors, 1 warning
            """));
  }

  @ParameterizedTest
  @MethodSource("rules")
  void reportsExactlyWhatTheRuleSays(String files, String expected) {
    assertThat(ProjectFixture.report(dir, files)).isEqualTo(expected);
  }

  @Test
  void theStoreNamesARedisAdapterForEveryToolsCacheEvenWhenTheGlobalOneIsOff() {
    Model model =
        ProjectFixture.model(
            dir,
            "== .svc\nname: shop\ntools:\n  cache: {enabled: false, store: shared}\n"
                + REDIS
                + tool("own", "cache: {enabled: true, ttl: 30}\n"));
    assertThat(model.service().cacheStore()).contains("shared");
    assertThat(model.tool("own").orElseThrow().cache())
        .isEqualTo(new CachePolicy(true, Duration.ofSeconds(30)));
  }

  @Test
  void withoutAStoreResultsAreCachedInMemory() {
    Model model =
        ProjectFixture.model(
            dir, "== .svc\nname: shop\ntools:\n  cache: {enabled: true}\n" + REDIS + tool("t", ""));
    assertThat(model.service().cacheStore()).isEmpty();
  }
}
