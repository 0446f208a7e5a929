package dev.svc.compile;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.model.Model;
import dev.svc.testing.ProjectFixture;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@code svc build} embeds in the model, and what it refuses to. */
class ArtifactsTest {
  @TempDir Path dir;

  @Test
  void aFileTooLargeToEmbedIsRefusedUnreadWithItsSize() throws Exception {
    Model model =
        ProjectFixture.model(
            dir,
            """
            == .svc
            name: shop
            == app/prompts/chart.terse
            messages:
              - role: user
                image: chart.png
            == app/prompts/chart.png
            placeholder
            """);
    Path image = dir.resolve("app/prompts/chart.png");
    // 3 GiB of nothing (a sparse file): more than a Java array can hold
    try (RandomAccessFile file = new RandomAccessFile(image.toFile(), "rw")) {
      file.setLength(3L << 30);
    }

    assertThatThrownBy(() -> Artifacts.embedFiles(model, dir))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessage(
            "cannot embed "
                + image
                + ": it holds 3072 MiB, more than the 256 MiB svc build embeds of one file; make"
                + " it smaller, or serve it from a tool");
  }
}
