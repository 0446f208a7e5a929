package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class OldGenerationCapTest {
  private static final long MB = 1024 * 1024;

  @Test
  void theThresholdIsTheLiveSetPlusHalfOfItAtLeastEightMegabytes() {
    assertThat(OldGenerationCap.threshold(4 * MB, 512 * MB)).isEqualTo(12 * MB);
    assertThat(OldGenerationCap.threshold(40 * MB, 512 * MB)).isEqualTo(60 * MB);
  }

  @Test
  void theThresholdNeverPassesTheGenerationsMaximum() {
    assertThat(OldGenerationCap.threshold(400 * MB, 480 * MB)).isEqualTo(480 * MB);
    assertThat(OldGenerationCap.threshold(4 * MB, -1)).isEqualTo(12 * MB);
  }

  @Test
  void deadObjectsInTheOldGenerationAreCollectedInsteadOfGrowingTheHeap() throws Exception {
    Probe uncapped = probe("uncapped");
    Probe capped = probe("capped");

    // the cause, as the serial collector behaves without the cap: the old generation grows
    assertThat(uncapped.fullCollections()).isZero();
    assertThat(uncapped.committedMb()).isGreaterThanOrEqualTo(100);
    // with it: full collections keep the old generation near its live set (~2 MB here)
    assertThat(capped.fullCollections()).isPositive();
    assertThat(capped.committedMb()).isLessThan(40);
  }

  private record Probe(long fullCollections, long committedMb) {}

  private static Probe probe(String mode) throws IOException, InterruptedException {
    String java = ProcessHandle.current().info().command().orElse("java");
    Process process =
        new ProcessBuilder(
                List.of(
                    java,
                    "-XX:+UseSerialGC",
                    "-Xms16m",
                    "-Xmn4m",
                    "-Xmx512m",
                    "-XX:MaxTenuringThreshold=1",
                    "-Xshare:auto",
                    "-cp",
                    System.getProperty("java.class.path"),
                    OldGenerationCapProbe.class.getName(),
                    mode))
            .redirectErrorStream(true)
            .start();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    Matcher m = Pattern.compile("full=(\\d+) committed_mb=(\\d+)").matcher(out);
    assertThat(m.find()).as(out).isTrue();
    return new Probe(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)));
  }
}
