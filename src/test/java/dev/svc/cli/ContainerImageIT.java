package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.json.Jackson;
import dev.svc.testing.McpHttpClient;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code svc build --image} of {@code examples/quickstart}: the OCI tarball's config says what a
 * container runtime needs, its layers extracted are a filesystem the server starts from — as the
 * non-root user, on a read-only root with only {@code /tmp} and {@code /data} writable, with the
 * start-up cache the build trained — and a tool call over MCP succeeds.
 */
class ContainerImageIT {
  private static final Pattern SERVING =
      Pattern.compile("svc: serving .* on http://[^:]+:(\\d+)/mcp");

  @TempDir Path work;

  @Test
  void theQuickstartImageServesAToolCallFromItsExtractedLayersAsNonRootOnAReadOnlyRoot()
      throws Exception {
    Path repository = Path.of("").toAbsolutePath();
    Path tarball = work.resolve("quickstart.tar");
    CliRun build =
        CliRun.svc(repository, "build", "examples/quickstart", "--image", tarball.toString());
    assertThat(build.exitCode()).as(build.err()).isZero();
    assertThat(build.out())
        .contains("svc: built image quickstart:1.0.0")
        .contains("manifest sha256:");

    Image image = Image.read(tarball, work.resolve("oci"));
    JsonNode config = image.config().get("config");
    assertThat(config.get("User").asString()).isEqualTo("65532:65532");
    assertThat(config.get("ExposedPorts").has("8080/tcp")).isTrue();
    assertThat(config.get("WorkingDir").asString()).isEqualTo("/app");
    List<String> entrypoint = strings(config.get("Entrypoint"));
    assertThat(entrypoint.getFirst()).isEqualTo("/opt/java/bin/java");
    assertThat(entrypoint)
        .containsSubsequence("-jar", "lib/svc.jar", "serve", "model.bin", "--address", "0.0.0.0")
        .contains("-XX:AOTCache=lib/svc.aot", "-Djava.io.tmpdir=/tmp");
    assertThat(strings(config.get("Env")))
        .contains("PORT=8080", "SVC_DATA_DIR=/data", "SVC_CACHE_DIR=/tmp/svc-cache");
    JsonNode labels = config.get("Labels");
    assertThat(labels.get("org.opencontainers.image.title").asString()).isEqualTo("quickstart");
    assertThat(labels.get("org.opencontainers.image.version").asString()).isEqualTo("1.0.0");
    assertThat(labels.get("dev.svc.version").asString()).isNotBlank();
    assertThat(image.manifest().get("layers")).hasSize(4);
    assertThat(image.config().get("rootfs").get("diff_ids")).hasSize(4);

    Path root = work.resolve("rootfs");
    image.extract(root);
    assertThat(root.resolve("app/model.bin")).isRegularFile();
    assertThat(root.resolve("app/lib/svc.aot")).isRegularFile();
    assertThat(root.resolve("app/svc")).doesNotExist(); // no shell in the image for a launcher
    assertThat(root.resolve("opt/java/bin/java")).isExecutable();
    assertThat(Files.readString(root.resolve("etc/passwd"))).contains("nonroot:x:65532:65532:");

    // -XX:AOTMode=on: the JVM refuses to start unless the cache trained at build time is usable
    List<String> command = new ArrayList<>(entrypoint);
    command.add(1, "-XX:AOTMode=on");
    command.addAll(List.of("--port", "0"));
    try (Container container = Container.start(root, strings(config.get("Env")), command, work)) {
      int port = container.awaitPort();
      String everyInterface = "svc: listening on every interface (0.0.0.0:" + port + ")";
      for (int i = 0;
          i < 50 && !Files.readString(container.output()).contains(everyInterface);
          i++) {
        Thread.sleep(100); // the banner's lines may reach the log one by one
      }
      assertThat(Files.readString(container.output())).contains(everyInterface);
      HttpResponse<String> heartbeat =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/heartbeat"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(heartbeat.statusCode()).isEqualTo(200);
      McpHttpClient mcp = new McpHttpClient("http://127.0.0.1:" + port);
      mcp.initialize();
      JsonNode result = mcp.call("list_products", "{\"category\": \"coffee\", \"limit\": 2}");
      assertThat(result.toString()).doesNotContain("\"isError\":true").contains("coffee");
    }

    // the heap: 512 MiB by default, and JAVA_TOOL_OPTIONS=-Xmx… wins over the entrypoint's flags
    List<String> flags = new ArrayList<>(entrypoint.subList(0, entrypoint.indexOf("-jar")));
    flags.addAll(List.of("-XX:+PrintFlagsFinal", "-version"));
    assertThat(maxHeap(root, strings(config.get("Env")), flags, "default"))
        .isEqualTo(512L * 1024 * 1024);
    List<String> withHeap = new ArrayList<>(strings(config.get("Env")));
    withHeap.add("JAVA_TOOL_OPTIONS=-Xmx300m");
    assertThat(maxHeap(root, withHeap, flags, "xmx")).isEqualTo(300L * 1024 * 1024);
  }

  private long maxHeap(Path root, List<String> env, List<String> command, String name)
      throws Exception {
    Path dir = Files.createDirectories(work.resolve("heap-" + name));
    try (Container container = Container.start(root, env, command, dir)) {
      assertThat(container.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
      Matcher heap =
          Pattern.compile("MaxHeapSize\\s*=\\s*(\\d+)")
              .matcher(Files.readString(container.output()));
      assertThat(heap.find()).as(Files.readString(container.output())).isTrue();
      return Long.parseLong(heap.group(1));
    }
  }

  @Test
  void rebuildingAChangedProjectChangesOnlyTheTopLayerAndNoEnvFileIsBakedIn() throws Exception {
    Path repository = Path.of("").toAbsolutePath();
    Path project = work.resolve("shop");
    copyTree(repository.resolve("examples/quickstart"), project);
    Files.writeString(project.resolve(".env"), "SHOP_TOKEN=sk-image-secret-4711\n");
    Path first = work.resolve("first.tar");
    Path second = work.resolve("second.tar");
    CliRun one =
        CliRun.svc(
            repository, "build", project.toString(), "--no-aot", "--image", first.toString());
    assertThat(one.exitCode()).as(one.err()).isZero();
    Path tool = project.resolve("app/tools/list_products/config.terse");
    Files.writeString(tool, Files.readString(tool).replace("cheapest first", "lowest price first"));
    CliRun two =
        CliRun.svc(
            repository, "build", project.toString(), "--no-aot", "--image", second.toString());
    assertThat(two.exitCode()).as(two.err()).isZero();

    List<String> before = digests(Image.read(first, work.resolve("oci-1")));
    List<String> after = digests(Image.read(second, work.resolve("oci-2")));
    assertThat(after.subList(0, 3)).isEqualTo(before.subList(0, 3));
    assertThat(after.get(3)).isNotEqualTo(before.get(3));

    try (Stream<Path> blobs = Files.list(work.resolve("oci-1/blobs/sha256"))) {
      for (Path blob : blobs.toList()) {
        assertThat(
                new String(gunzipIfNeeded(Files.readAllBytes(blob)), StandardCharsets.ISO_8859_1))
            .as(blob.toString())
            .doesNotContain("sk-image-secret-4711")
            .doesNotContain("SHOP_TOKEN");
      }
    }
  }

  /**
   * The image replaced whatever its path held: {@code --image .svc} the project's root file, a
   * folder (when empty) the folder. It now replaces only an earlier image.
   */
  @Test
  void theImageReplacesOnlyAnEarlierImageNeitherAProjectFileNorAFolder() throws Exception {
    Path repository = Path.of("").toAbsolutePath();
    Path project = work.resolve("shop");
    copyTree(repository.resolve("examples/quickstart"), project);
    String root = Files.readString(project.resolve(".svc"));
    Path folder = Files.createDirectories(work.resolve("images"));
    Path earlier = work.resolve("earlier.tar");
    Files.write(
        earlier,
        "oci-layout\0\0 and the rest of an earlier image".getBytes(StandardCharsets.US_ASCII));

    CliRun onRoot = CliRun.svc(project, "build", "--no-aot", "--image", ".svc");
    CliRun onFolder = CliRun.svc(project, "build", "--no-aot", "--image", folder.toString());
    CliRun onImage = CliRun.svc(project, "build", "--no-aot", "--image", earlier.toString());

    assertThat(onRoot.exitCode()).isEqualTo(ExitCodes.FAILED);
    assertThat(onRoot.err())
        .contains(
            project.resolve(".svc")
                + " exists and is not an image of `svc build --image`, which replaces only its own"
                + " images; remove the file or name another one");
    assertThat(project.resolve(".svc")).hasContent(root);
    assertThat(onFolder.exitCode()).isEqualTo(ExitCodes.FAILED);
    assertThat(onFolder.err()).contains("the image file " + folder + " is a folder");
    assertThat(folder).isDirectory();
    assertThat(onImage.exitCode()).as(onImage.err()).isZero();
    assertThat(Files.size(earlier)).isGreaterThan(1024 * 1024);
  }

  @Test
  void imageAndOutputDirectoryTogetherAreABadCommandLine() {
    CliRun run =
        CliRun.svc(
            Path.of("").toAbsolutePath(),
            "build",
            "examples/quickstart",
            "--image",
            work.resolve("x.tar").toString(),
            "-o",
            work.resolve("dist").toString());
    assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(run.err()).contains("--image writes only the image file");
  }

  private static List<String> digests(Image image) {
    List<String> digests = new ArrayList<>();
    image.manifest().get("layers").forEach(layer -> digests.add(layer.get("digest").asString()));
    return digests;
  }

  private static List<String> strings(JsonNode array) {
    List<String> values = new ArrayList<>();
    array.forEach(value -> values.add(value.asString()));
    return values;
  }

  private static byte[] gunzipIfNeeded(byte[] bytes) throws IOException {
    if (bytes.length < 2 || (bytes[0] & 0xff) != 0x1f || (bytes[1] & 0xff) != 0x8b) {
      return bytes;
    }
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
      return in.readAllBytes();
    }
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path source : walk.toList()) {
        Path target = to.resolve(from.relativize(source).toString());
        if (Files.isDirectory(source)) {
          Files.createDirectories(target);
        } else if (!source.getFileName().toString().endsWith(".db")) {
          Files.copy(source, target);
        }
      }
    }
  }

  static int run(Path directory, String... command) throws IOException, InterruptedException {
    Process process =
        new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    process.getInputStream().transferTo(output);
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(String.join(" ", command) + " did not finish");
    }
    if (process.exitValue() != 0) {
      throw new AssertionError(String.join(" ", command) + " failed: " + output);
    }
    return process.exitValue();
  }

  /** An OCI image layout tarball unpacked: its index, manifest and config, and its layer blobs. */
  record Image(Path layout, JsonNode manifest, JsonNode config) {
    static Image read(Path tarball, Path layout) throws IOException, InterruptedException {
      Files.createDirectories(layout);
      run(layout, "tar", "-xf", tarball.toString());
      assertThat(Files.readString(layout.resolve("oci-layout"))).contains("\"1.0.0\"");
      JsonNode index = Jackson.MAPPER.readTree(Files.readString(layout.resolve("index.json")));
      assertThat(index.get("manifests")).hasSize(1);
      JsonNode manifest = Jackson.MAPPER.readTree(blob(layout, index.get("manifests").get(0)));
      assertThat(manifest.get("mediaType").asString()).isEqualTo(OciImage.MANIFEST_TYPE);
      JsonNode config = Jackson.MAPPER.readTree(blob(layout, manifest.get("config")));
      return new Image(layout, manifest, config);
    }

    private static String blob(Path layout, JsonNode descriptor) throws IOException {
      String digest = descriptor.get("digest").asString();
      Path file = layout.resolve("blobs/sha256").resolve(digest.substring("sha256:".length()));
      assertThat(Files.size(file)).isEqualTo(descriptor.get("size").asLong());
      assertThat("sha256:" + Installation.sha256(Files.readAllBytes(file))).isEqualTo(digest);
      return Files.readString(file);
    }

    /** Applies the layers in order, as a container runtime does (as root: owners kept). */
    void extract(Path root) throws IOException, InterruptedException {
      Files.createDirectories(root);
      for (JsonNode layer : manifest.get("layers")) {
        assertThat(layer.get("mediaType").asString()).isEqualTo(OciImage.LAYER_TYPE);
        String hex = layer.get("digest").asString().substring("sha256:".length());
        run(root, "tar", "-xzf", layout.resolve("blobs/sha256").resolve(hex).toString());
      }
    }
  }

  /**
   * The extracted image run as a container runtime would: as root (CI), in a mount namespace with
   * the root made read-only, tmpfs at /tmp and /data, /proc mounted, then chroot-ed into it as uid
   * 65532 with only the image's environment. As another user, the image's java runs in place with
   * its paths moved under the extracted root (no read-only check).
   */
  record Container(Process process, Path output) implements AutoCloseable {
    static Container start(Path root, List<String> env, List<String> command, Path work)
        throws IOException {
      Path output = work.resolve("container.log");
      List<String> full = new ArrayList<>();
      boolean asRoot = "root".equals(System.getProperty("user.name"));
      if (asRoot) {
        String r = root.toString();
        String script =
            String.join(
                "\n",
                "set -e",
                "mkdir -p '" + r + "/proc' '" + r + "/dev'", // a runtime's mount points
                "mount --bind '" + r + "' '" + r + "'",
                "mount -o remount,bind,ro '" + r + "'",
                "mount --rbind /dev '" + r + "/dev'",
                "mount -t tmpfs -o mode=1777 tmpfs '" + r + "/tmp'",
                "mount -t tmpfs -o mode=0755,uid=65532,gid=65532 tmpfs '" + r + "/data'",
                "mount -t proc proc '" + r + "/proc'",
                "exec env -i \"$@\"");
        full.addAll(
            List.of(
                "unshare",
                "--mount",
                "--propagation",
                "private",
                "--fork",
                "--kill-child",
                "bash",
                "-c",
                script,
                "container"));
        full.addAll(env);
        full.addAll(
            List.of(
                "unshare", "--root=" + r, "--wd=/app", "--setuid", "65532", "--setgid", "65532"));
        full.addAll(command);
      } else {
        Path tmp = Files.createDirectories(work.resolve("tmp"));
        Path data = Files.createDirectories(work.resolve("data"));
        full.add("env");
        full.add("-i");
        for (String variable : env) {
          full.add(variable.replace("=/tmp", "=" + tmp).replace("=/data", "=" + data));
        }
        for (String arg : command) {
          full.add(
              arg.startsWith("/")
                  ? root + arg
                  : arg.replace("=/tmp", "=" + tmp).replace("=/app", "=" + root.resolve("app")));
        }
      }
      Process process =
          new ProcessBuilder(full)
              .directory(root.resolve("app").toFile())
              .redirectErrorStream(true)
              .redirectOutput(output.toFile())
              .start();
      return new Container(process, output);
    }

    int awaitPort() throws IOException, InterruptedException {
      long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (System.nanoTime() < end) {
        Matcher serving = SERVING.matcher(Files.readString(output));
        if (serving.find()) {
          return Integer.parseInt(serving.group(1));
        }
        if (!process.isAlive()) {
          break;
        }
        Thread.sleep(50);
      }
      throw new AssertionError("the image did not start serving:\n" + Files.readString(output));
    }

    @Override
    public void close() {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      process.onExit().orTimeout(10, TimeUnit.SECONDS).exceptionally(e -> process).join();
    }
  }
}
