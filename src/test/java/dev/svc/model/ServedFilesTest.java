package dev.svc.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServedFilesTest {
  @Test
  void dotNamesAndConfigFilesAreNotServableAtAnyDepth() {
    assertThat(ServedFiles.servable(Path.of("docs/a.txt"))).isTrue();
    assertThat(ServedFiles.servable(Path.of(".env"))).isFalse();
    assertThat(ServedFiles.servable(Path.of("sub/.git/config"))).isFalse();
    assertThat(ServedFiles.servable(Path.of("config.terse"))).isFalse();
    assertThat(ServedFiles.servable(Path.of("app/tools/x/config.terse"))).isFalse();
  }

  @Test
  void aLinkCountsWhereItLeads(@TempDir Path folder, @TempDir Path elsewhere) throws Exception {
    Path inside = Files.writeString(folder.resolve("a.txt"), "a");
    Path away = Files.writeString(elsewhere.resolve("b.txt"), "b");
    Path stays = Files.createSymbolicLink(folder.resolve("stays.txt"), inside);
    Path leaves = Files.createSymbolicLink(folder.resolve("leaves.txt"), away);

    assertThat(ServedFiles.insideForReal(inside, folder)).isTrue();
    assertThat(ServedFiles.insideForReal(stays, folder)).isTrue();
    assertThat(ServedFiles.insideForReal(leaves, folder)).isFalse();
    assertThat(ServedFiles.insideForReal(folder.resolve("missing.txt"), folder)).isFalse();
  }
}
