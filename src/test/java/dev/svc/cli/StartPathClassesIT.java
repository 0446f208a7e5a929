package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A built artifact starts on classes from its start-up cache: none of svc's own is generated at run
 * time on the way to the first answer. A lambda the cache cannot hold (such as {@code
 * Comparator.comparing}'s, which is serializable), one the training run never made, or a pattern
 * switch has its class generated at every start, and the first one pulls in the JDK's whole
 * class-generating machinery, interpreted: ~11% of the start's CPU in bench/RESULTS.md, "Start-up,
 * issue 21".
 */
class StartPathClassesIT {
  @TempDir Path work;

  @Test
  void theQuickstartArtifactGeneratesNoLambdaClassUntilItAnswers() throws Exception {
    assertThat(generatedUntilTheFirstAnswer(Path.of("examples/quickstart").toAbsolutePath()))
        .as("lambda and switch classes generated at start instead of taken from the cache")
        .isEmpty();
  }

  @Test
  void aProjectWithAScriptGeneratesNoneEither_itsIsolateWarmingBesideTheStart() throws Exception {
    Path project = work.resolve("with-script");
    copyTree(Path.of("examples/quickstart").toAbsolutePath(), project);
    Path tool = Files.createDirectories(project.resolve("app/tools/hello"));
    Files.writeString(
        tool.resolve("config.terse"),
        "description: Says hello.\ninputs:\n  name: {type: string, description: Who}\n");
    Files.writeString(
        tool.resolve("handler.ts"),
        "export default ({ inputs }) => ({ greeting: \"Hello \" + inputs.name });\n");

    assertThat(generatedUntilTheFirstAnswer(project))
        .as("lambda and switch classes generated at start instead of taken from the cache")
        .isEmpty();
  }

  /**
   * Builds {@code project} (with its start-up cache), serves the artifact until it answered its
   * first request, and returns the class-loading log's lines of lambda and pattern-switch classes
   * that did not come from the cache.
   */
  private List<String> generatedUntilTheFirstAnswer(Path project) throws Exception {
    Path dist = work.resolve(project.getFileName() + "-dist");
    CliRun build = CliRun.svc(work, "build", project.toString(), "-o", dist.toString());
    assertThat(build.exitCode()).as(build.err()).isZero();
    assertThat(dist.resolve("lib/svc.aot")).isRegularFile();

    Path classes = work.resolve(project.getFileName() + "-classes.log");
    Path output = work.resolve(project.getFileName() + "-serve.out");
    int port = freePort();
    ProcessBuilder serve =
        new ProcessBuilder(dist.resolve("svc").toString(), "serve", "-p", String.valueOf(port))
            .directory(dist.toFile())
            .redirectErrorStream(true)
            .redirectOutput(output.toFile());
    serve.environment().put("SVC_JAVA_OPTS", "-Xlog:class+load:file=" + classes);
    Process process = serve.start();
    try {
      awaitHeartbeat(port, process, output);
    } finally {
      // killed, not stopped: the shutdown's own classes are not the start's
      process.destroyForcibly();
      process.waitFor(30, TimeUnit.SECONDS);
    }
    List<String> loaded = Files.readAllLines(classes);
    assertThat(loaded).anyMatch(line -> line.contains("dev.svc.cli.Main source: shared"));
    return loaded.stream()
        .filter(line -> line.contains("$$Lambda") || line.contains("$$TypeSwitch"))
        .filter(line -> !line.contains("source: shared objects file"))
        .toList();
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (var files = Files.walk(from)) {
      for (Path source : (Iterable<Path>) files::iterator) {
        Path target = to.resolve(from.relativize(source).toString());
        if (Files.isDirectory(source)) {
          Files.createDirectories(target);
        } else if (!source.getFileName().toString().startsWith("shop.db")) {
          Files.copy(source, target);
        }
      }
    }
  }

  /**
   * Waits for the banner (printed once the port is open and ready), then asks for the heartbeat
   * once: no request reaches the server while it is still starting (a 503's path is not the
   * start's).
   */
  private static void awaitHeartbeat(int port, Process process, Path output) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!Files.readString(output).contains("svc: serving")) {
      if (!process.isAlive()) {
        throw new AssertionError("svc serve ended: " + Files.readString(output));
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("no banner within 60 s: " + Files.readString(output));
      }
      Thread.sleep(10);
    }
    // HTTP/1.1 as load balancers and probes send it (the JDK client would offer an h2c upgrade)
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    HttpRequest heartbeat =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/heartbeat"))
            .timeout(Duration.ofSeconds(10))
            .build();
    assertThat(client.send(heartbeat, HttpResponse.BodyHandlers.discarding()).statusCode())
        .isEqualTo(200);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
