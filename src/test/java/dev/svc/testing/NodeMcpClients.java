package dev.svc.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.json.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;

/**
 * The official MCP TypeScript clients, {@code @modelcontextprotocol/sdk} 1.x and {@code
 * {@literal @}modelcontextprotocol/client} 2.x, installed with npm once per machine into {@code
 * ~/.cache/svc/} and driven by {@code src/test/resources/dev/svc/interop/client.mjs}, which prints
 * one JSON report of what each step got. Both packages run on Node 20 (their {@code engines} ask
 * for {@code >=18} and {@code >=20}), so the {@code node} beside npm on PATH runs them.
 */
public final class NodeMcpClients {
  public static final String CLIENT = "@modelcontextprotocol/client@2.4.0";
  public static final String SDK = "@modelcontextprotocol/sdk@1.32.2";
  private static final String INSTALLED = "installed";

  /** What the script runs as: the 1.x SDK, or the 2.x client in one negotiation mode. */
  public enum Flavour {
    SDK1,
    LEGACY,
    AUTO,
    PIN
  }

  private final Path dir;

  private NodeMcpClients(Path dir) {
    this.dir = dir;
  }

  /** Installs both packages unless this machine already has them; fails when npm is missing. */
  public static NodeMcpClients install() {
    Path dir =
        Path.of(
            System.getProperty("user.home"),
            ".cache",
            "svc",
            "mcp-clients-" + version(CLIENT) + "-" + version(SDK));
    try {
      if (!installed(dir, CLIENT) || !installed(dir, SDK)) {
        npmInstall(dir);
      }
      // a script resolves the packages from where it lies, so it runs from the install folder
      for (String name : List.of("client.mjs", "listen.mjs", "oauth-client.mjs")) {
        try (InputStream script =
            NodeMcpClients.class.getResourceAsStream("/dev/svc/interop/" + name)) {
          Files.copy(script, dir.resolve(name), StandardCopyOption.REPLACE_EXISTING);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new NodeMcpClients(dir);
  }

  /** Runs the script as {@code flavour} against {@code mcpUrl} and returns its report. */
  public JsonNode run(Flavour flavour, String mcpUrl) {
    try {
      Path stderr = Files.createTempFile("mcp-client", ".err");
      Process node =
          new ProcessBuilder(
                  "node",
                  dir.resolve("client.mjs").toString(),
                  flavour.name().toLowerCase(java.util.Locale.ROOT),
                  mcpUrl)
              .directory(dir.toFile())
              .redirectError(stderr.toFile())
              .start();
      String out = new String(node.getInputStream().readAllBytes());
      assertThat(node.waitFor(2, TimeUnit.MINUTES)).as("the %s client finished", flavour).isTrue();
      String err = Files.readString(stderr);
      Files.delete(stderr);
      assertThat(node.exitValue()).as("node %s: %s%s", flavour, out, err).isZero();
      return Json.MAPPER.readTree(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * Runs {@code oauth-client.mjs}: the 1.x SDK's client with its {@code ClientCredentialsProvider}
   * (client {@code clientId}, trusting only {@code issuer}) connects to {@code mcpUrl}, finds the
   * authorization server itself from the 401, and calls {@code tool}. Returns its report.
   */
  public JsonNode runOAuth(
      String mcpUrl,
      String issuer,
      String clientId,
      String clientSecret,
      String tool,
      String argumentsJson) {
    try {
      Path stderr = Files.createTempFile("mcp-oauth-client", ".err");
      ProcessBuilder builder =
          new ProcessBuilder(
                  "node",
                  dir.resolve("oauth-client.mjs").toString(),
                  mcpUrl,
                  issuer,
                  tool,
                  argumentsJson)
              .directory(dir.toFile())
              .redirectError(stderr.toFile());
      // the secret travels in the environment, not on a command line others can read
      builder.environment().put("OAUTH_CLIENT_ID", clientId);
      builder.environment().put("OAUTH_CLIENT_SECRET", clientSecret);
      Process node = builder.start();
      String out = new String(node.getInputStream().readAllBytes());
      assertThat(node.waitFor(2, TimeUnit.MINUTES)).as("the OAuth client finished").isTrue();
      String err = Files.readString(stderr);
      Files.delete(stderr);
      assertThat(node.exitValue()).as("node oauth-client.mjs: %s%s", out, err).isZero();
      return Json.MAPPER.readTree(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * Starts {@code listen.mjs} as {@code flavour} ({@link Flavour#PIN} or {@link Flavour#LEGACY})
   * against {@code mcpUrl}; its JSON lines are read one by one while the test acts in between.
   */
  public Lines listen(Flavour flavour, String mcpUrl) {
    try {
      Process node =
          new ProcessBuilder(
                  "node",
                  dir.resolve("listen.mjs").toString(),
                  flavour.name().toLowerCase(java.util.Locale.ROOT),
                  mcpUrl)
              .directory(dir.toFile())
              .redirectErrorStream(true)
              .start();
      return new Lines(node);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The output of a running script, a line at a time; closing it ends the script. */
  public static final class Lines implements AutoCloseable {
    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final StringBuilder transcript = new StringBuilder();

    Lines(Process process) {
      this.process = process;
      Thread.ofVirtual()
          .start(() -> {
            try (BufferedReader reader = process.inputReader()) {
              reader.lines().forEach(lines::add);
            } catch (IOException | UncheckedIOException e) {
              // the process ended; next() reports what it printed
            }
          });
    }

    /** The next line that is JSON (anything else the script prints is kept for messages). */
    public JsonNode next() {
      try {
        while (true) {
          String line = lines.poll(30, TimeUnit.SECONDS);
          if (line == null) {
            throw new AssertionError("the client printed nothing more for 30 s:\n" + transcript);
          }
          transcript.append(line).append('\n');
          if (line.startsWith("{")) {
            return Json.MAPPER.readTree(line);
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }

    @Override
    public void close() {
      process.destroy();
    }
  }

  private static String version(String spec) {
    return spec.substring(spec.lastIndexOf('@') + 1);
  }

  private static boolean installed(Path dir, String spec) throws IOException {
    String name = spec.substring(0, spec.lastIndexOf('@'));
    Path manifest = dir.resolve("node_modules").resolve(name).resolve("package.json");
    // written after npm succeeded, so an interrupted install is redone
    return Files.isRegularFile(dir.resolve(INSTALLED))
        && Files.isRegularFile(manifest)
        && Json.MAPPER
            .readTree(manifest.toFile())
            .path("version")
            .asString("")
            .equals(version(spec));
  }

  private static void npmInstall(Path dir) throws IOException {
    Files.createDirectories(dir);
    Process npm;
    try {
      npm =
          new ProcessBuilder(
                  List.of(
                      "npm",
                      "install",
                      "--no-audit",
                      "--no-fund",
                      "--prefix",
                      dir.toString(),
                      CLIENT,
                      SDK))
              .redirectErrorStream(true)
              .start();
    } catch (IOException e) {
      throw new AssertionError(
          "the official MCP client tests need npm (Node.js >= 20) on PATH to install "
              + CLIENT
              + " and "
              + SDK,
          e);
    }
    String out = new String(npm.getInputStream().readAllBytes());
    try {
      assertThat(npm.waitFor(5, TimeUnit.MINUTES)).as("npm install finished").isTrue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    assertThat(npm.exitValue())
        .as("npm install " + CLIENT + " " + SDK + " failed:\n" + out)
        .isZero();
    Files.writeString(dir.resolve(INSTALLED), CLIENT + " " + SDK + "\n");
  }
}
