package dev.svc.cli;

import static dev.svc.cli.CliRun.svc;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.RandomAccessFile;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code svc serve} given a {@code model.bin} it cannot use. */
class ServeCommandTest {
  @TempDir Path work;

  /**
   * A model.bin larger than the heap can hold (here a sparse file past both the heap and the
   * largest array) was read whole: an {@code OutOfMemoryError} ended the command.
   */
  @Test
  void aModelFileLargerThanTheHeapCanReadIsRefusedBeforeItIsRead() throws Exception {
    Path model = work.resolve("model.bin");
    long size = Math.max(Runtime.getRuntime().maxMemory(), Integer.MAX_VALUE) + 1;
    try (RandomAccessFile file = new RandomAccessFile(model.toFile(), "rw")) {
      file.setLength(size);
    }

    CliRun run = svc(work, "serve", "-p", "0");

    assertThat(run.exitCode()).isEqualTo(ExitCodes.FAILED);
    assertThat(run.err())
        .startsWith("error: " + model + " holds " + size / (1024 * 1024) + " MiB")
        .contains("more than svc serve reads with a heap of")
        .contains("give the JVM more heap (SVC_JAVA_OPTS=-Xmx…), else rebuild it");
  }

  @Test
  void theCeilingIsAThirdOfTheHeap() {
    assertThat(ServeCommand.maxModelBytes(512L * 1024 * 1024)).isEqualTo(512L * 1024 * 1024 / 3);
  }

  /** An empty {@code --address} bound to localhost and announced {@code http://:8080/mcp}. */
  @Test
  void anEmptyAddressIsABadCommandLine() {
    for (String command : new String[] {"serve", "start"}) {
      CliRun run = svc(work, command, "--address=");

      assertThat(run.exitCode()).as(command).isEqualTo(ExitCodes.USAGE);
      assertThat(run.err())
          .isEqualTo(
              "error: --address must not be empty (127.0.0.1 is the default, 0.0.0.0 every"
                  + " interface)\n");
    }
  }
}
