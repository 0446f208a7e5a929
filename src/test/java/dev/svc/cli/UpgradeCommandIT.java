package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code svc upgrade} against a release feed served by an in-test HTTP server. */
class UpgradeCommandIT {
  @TempDir Path dir;
  HttpServer feed;
  final Map<String, byte[]> files = new HashMap<>();
  final StringWriter out = new StringWriter();
  final StringWriter err = new StringWriter();

  @BeforeEach
  void serveFeed() throws IOException {
    feed = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    feed.createContext(
        "/",
        exchange -> {
          byte[] body = files.get(exchange.getRequestURI().getPath());
          if (body == null) {
            exchange.sendResponseHeaders(404, -1);
          } else {
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
          }
          exchange.close();
        });
    feed.start();
    for (String version : new String[] {"0.2.0", "0.3.0", "0.4.0-rc.1", "1.0.0"}) {
      files.put("/svc-" + version + ".zip", release(version));
    }
    publish(
        """
        {"releases": [
          {"version": "0.2.0", "url": "svc-0.2.0.zip", "sha256": "%s"},
          {"version": "0.3.0", "url": "svc-0.3.0.zip", "sha256": "%s"},
          {"version": "0.4.0-rc.1", "prerelease": true, "url": "svc-0.4.0-rc.1.zip", "sha256": "%s"},
          {"version": "1.0.0", "url": "/svc-1.0.0.zip", "sha256": "%s"}
        ]}
        """
            .formatted(sha("0.2.0"), sha("0.3.0"), sha("0.4.0-rc.1"), sha("1.0.0")));
  }

  @AfterEach
  void stop() {
    feed.stop(0);
  }

  @Test
  void upgradesToTheNewestReleaseOfTheCurrentMajor() throws IOException {
    Path installation = installation("0.1.0");
    assertThat(upgrade(installation)).isEqualTo(ExitCodes.OK);
    assertThat(out.toString()).contains("from 0.1.0 to 0.3.0");
    assertThat(Installation.version(installation)).contains("0.3.0");
    assertThat(Files.readString(installation.resolve("svc"))).contains("0.3.0");
    assertThat(installation.resolve("model.bin")).hasContent("kept");
    assertThat(Files.list(installation).map(p -> p.getFileName().toString()))
        .doesNotContain(".lib-previous", ".upgrade-0.3.0");
  }

  @Test
  void prereleasesAndOtherMajorsOnlyWhenAskedFor() throws IOException {
    assertThat(upgrade(installation("0.3.0"))).isEqualTo(ExitCodes.OK);
    assertThat(out.toString()).contains("svc 0.3.0 is up to date");
    assertThat(upgrade(installation("0.3.0"), "--prerelease")).isEqualTo(ExitCodes.OK);
    assertThat(out.toString()).contains("to 0.4.0-rc.1");
    assertThat(upgrade(installation("0.3.0"), "--major", "next")).isEqualTo(ExitCodes.OK);
    assertThat(out.toString()).contains("to 1.0.0");
    assertThat(upgrade(installation("0.3.0"), "--major", "soon")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("--major takes a major version number or `next`");
  }

  @Test
  void aWrongChecksumChangesNothing() throws IOException {
    files.put("/svc-0.3.0.zip", release("0.3.0-tampered"));
    Path installation = installation("0.1.0");
    assertThat(upgrade(installation)).isEqualTo(ExitCodes.FAILED);
    assertThat(err.toString()).contains("SHA-256").contains("Nothing was changed.");
    assertThat(Installation.version(installation)).contains("0.1.0");
  }

  @Test
  void anUnreachableFeedIsExplained() throws IOException {
    Path installation = installation("0.1.0");
    int exit =
        Main.run(
            new CliContext(
                dir,
                Map.of(
                    "SVC_RELEASES_URL",
                    "http://u:TopSecret-Feed@127.0.0.1:1/releases.json?token=TopSecret-Query"),
                new PrintWriter(out, true),
                new PrintWriter(err, true)),
            "upgrade",
            "--installation",
            installation.toString());
    assertThat(exit).isEqualTo(ExitCodes.FAILED);
    assertThat(err.toString())
        .contains("cannot read the release feed at http://127.0.0.1:1/releases.json")
        .contains("SVC_RELEASES_URL")
        .doesNotContain("TopSecret");
  }

  @Test
  void aSourceCheckoutIsNotUpgraded() {
    assertThat(upgrade(dir)).isEqualTo(ExitCodes.FAILED);
    assertThat(err.toString()).contains("is not an svc installation").contains("git pull");
  }

  private int upgrade(Path installation, String... flags) {
    String[] args = new String[flags.length + 3];
    args[0] = "upgrade";
    args[1] = "--installation";
    args[2] = installation.toString();
    System.arraycopy(flags, 0, args, 3, flags.length);
    Map<String, String> env =
        Map.of(
            "SVC_RELEASES_URL",
            "http://127.0.0.1:" + feed.getAddress().getPort() + "/releases.json");
    return Main.run(
        new CliContext(dir, env, new PrintWriter(out, true), new PrintWriter(err, true)), args);
  }

  private void publish(String json) {
    files.put("/releases.json", json.getBytes(StandardCharsets.UTF_8));
  }

  private String sha(String version) {
    return Installation.sha256(files.get("/svc-" + version + ".zip"));
  }

  private Path installation(String version) throws IOException {
    Path root = Files.createTempDirectory(dir, "install");
    Files.createDirectories(root.resolve("lib"));
    Files.write(root.resolve("lib/svc.jar"), jar(version));
    Files.writeString(root.resolve("svc"), "#!/bin/sh\n# svc " + version + "\n");
    Files.writeString(root.resolve("model.bin"), "kept");
    return root;
  }

  private static byte[] jar(String version) throws IOException {
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    manifest.getMainAttributes().put(Attributes.Name.IMPLEMENTATION_VERSION, version);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (JarOutputStream jar = new JarOutputStream(bytes, manifest)) {
      jar.putNextEntry(new ZipEntry("dev/svc/Marker.txt"));
      jar.write(version.getBytes(StandardCharsets.UTF_8));
    }
    return bytes.toByteArray();
  }

  private static byte[] release(String version) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
      zip.putNextEntry(new ZipEntry("lib/svc.jar"));
      zip.write(jar(version.replace("-tampered", "")));
      zip.putNextEntry(new ZipEntry("svc"));
      zip.write(("#!/bin/sh\n# svc " + version + "\n").getBytes(StandardCharsets.UTF_8));
    }
    return bytes.toByteArray();
  }
}
