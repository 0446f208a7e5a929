package dev.svc.script;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The type-check results kept between runs of svc validate. */
class CheckResultsTest {
  @TempDir Path cache;

  @Test
  void onlyTheMostRecentlyCheckedProjectsAreKept() throws Exception {
    for (int i = 0; i < CheckResults.KEPT + 30; i++) {
      Path result = Files.writeString(cache.resolve("p" + i + ".json"), "{}");
      Files.setLastModifiedTime(result, FileTime.fromMillis(1_000_000L * (i + 1)));
    }
    Path written = Files.writeString(cache.resolve("now.json"), "{}");
    Files.writeString(cache.resolve("check1.partial"), "");

    CheckResults.prune(cache, written);

    try (Stream<Path> left = Files.list(cache)) {
      assertThat(left.filter(f -> f.toString().endsWith(".json"))).hasSize(CheckResults.KEPT);
    }
    assertThat(written).exists();
    assertThat(cache.resolve("p" + (CheckResults.KEPT + 29) + ".json")).as("the newest").exists();
    assertThat(cache.resolve("p0.json")).as("the oldest").doesNotExist();
    assertThat(cache.resolve("check1.partial")).as("not a result").exists();
  }
}
