package dev.svc.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import tools.jackson.databind.json.JsonMapper;

/**
 * A real OpenID provider for the OAuth tests: Keycloak from Maven Central ({@code
 * org.keycloak:keycloak-quarkus-dist}, fetched into {@code ~/.m2} with Maven when missing, unpacked
 * once into {@code ~/.cache/svc/keycloak-<version>}), started once per test JVM on a free loopback
 * port with the realm {@code src/test/resources/keycloak/svc-test-realm.json} (realm {@code
 * svc-test}). Keycloak needs 40–70 s to start: every test class shares the one process. When it
 * cannot be had, tests fail with the reason: they never skip.
 */
public final class KeycloakFixture {
  public static final String REALM = "svc-test";
  public static final String AUDIENCE = "https://svc.test/mcp";

  /** How long Keycloak may take to start; {@code -Dkeycloak.startLimit=PT8M} on a busy machine. */
  private static final Duration START_LIMIT =
      Duration.parse(System.getProperty("keycloak.startLimit", "PT4M"));

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private static KeycloakFixture running;

  private final Process process;
  private final int port;
  private final Path log;
  private final HttpClient http = HttpClient.newHttpClient();

  private KeycloakFixture(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  /** The one Keycloak of this test run, started on first use. */
  public static synchronized KeycloakFixture get() {
    if (running == null) {
      running = start();
      KeycloakFixture started = running;
      Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(started.process)));
    }
    return running;
  }

  /** The issuer, exactly as Keycloak writes it in tokens. */
  public String issuer() {
    return "http://127.0.0.1:" + port + "/realms/" + REALM;
  }

  /** An access token by the client-credentials grant, as a client would get it. */
  public String token(String clientId, String secret) {
    String form =
        "grant_type=client_credentials&client_id="
            + URLEncoder.encode(clientId, StandardCharsets.UTF_8)
            + "&client_secret="
            + URLEncoder.encode(secret, StandardCharsets.UTF_8);
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(issuer() + "/protocol/openid-connect/token"))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form))
            .build();
    try {
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new AssertionError(
            "Keycloak refused a token to " + clientId + ": " + response.body());
      }
      return JSON.readTree(response.body()).path("access_token").asString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static KeycloakFixture start() {
    String version = System.getProperty("keycloak.version", "26.7.3");
    Path home = unpacked(version);
    try {
      Path imports = home.resolve("data/import");
      Files.createDirectories(imports);
      try (InputStream realm =
          KeycloakFixture.class.getResourceAsStream("/keycloak/svc-test-realm.json")) {
        if (realm == null) {
          throw new AssertionError("the test realm keycloak/svc-test-realm.json is missing");
        }
        Files.copy(
            realm, imports.resolve("svc-test-realm.json"), StandardCopyOption.REPLACE_EXISTING);
      }
      int port = freePort();
      int management = freePort();
      Path log = Files.createTempFile("svc-keycloak-", ".log");
      ProcessBuilder builder =
          new ProcessBuilder(
                  "bash",
                  home.resolve("bin/kc.sh").toString(),
                  "start-dev",
                  "--http-host=127.0.0.1",
                  "--http-port=" + port,
                  "--http-management-port=" + management,
                  "--db=dev-mem",
                  "--import-realm")
              .directory(home.toFile())
              .redirectErrorStream(true)
              .redirectOutput(log.toFile());
      builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
      builder.environment().put("KC_BOOTSTRAP_ADMIN_USERNAME", "admin");
      builder.environment().put("KC_BOOTSTRAP_ADMIN_PASSWORD", "admin-" + port);
      Process process = builder.start();
      KeycloakFixture keycloak = new KeycloakFixture(process, port, log);
      keycloak.awaitReady();
      return keycloak;
    } catch (IOException e) {
      throw new AssertionError("cannot start Keycloak from " + home + ": " + e.getMessage(), e);
    }
  }

  private void awaitReady() {
    URI discovery = URI.create(issuer() + "/.well-known/openid-configuration");
    Instant limit = Instant.now().plus(START_LIMIT);
    while (Instant.now().isBefore(limit)) {
      if (!process.isAlive()) {
        throw new AssertionError(
            "Keycloak exited with " + process.exitValue() + " while starting:\n" + logTail());
      }
      try {
        HttpResponse<String> response =
            http.send(
                HttpRequest.newBuilder(discovery).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      try {
        Thread.sleep(500);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    stop(process);
    throw new AssertionError(
        "Keycloak did not answer " + discovery + " within " + START_LIMIT + ":\n" + logTail());
  }

  /**
   * Stops kc.sh and the JVM it started: destroying the script alone would leave Keycloak running.
   */
  private static void stop(Process process) {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
  }

  private String logTail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  /** The unpacked distribution, unpacking (and first fetching) it when it is not there yet. */
  private static Path unpacked(String version) {
    Path home = Path.of(System.getProperty("user.home"), ".cache", "svc", "keycloak-" + version);
    if (Files.isRegularFile(home.resolve(".unpacked"))) {
      return home;
    }
    Path zip = zip(version);
    try {
      Path partial = Files.createDirectories(home.resolveSibling(home.getFileName() + ".partial"));
      try (ZipInputStream in = new ZipInputStream(Files.newInputStream(zip))) {
        String prefix = "keycloak-" + version + "/";
        for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
          String name =
              entry.getName().startsWith(prefix)
                  ? entry.getName().substring(prefix.length())
                  : entry.getName();
          Path target = partial.resolve(name).normalize();
          if (!target.startsWith(partial) || name.isEmpty()) {
            continue;
          }
          if (entry.isDirectory()) {
            Files.createDirectories(target);
          } else {
            Files.createDirectories(target.getParent());
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
          }
        }
      }
      deleteTree(home);
      Files.move(partial, home);
      Files.writeString(home.resolve(".unpacked"), version);
      return home;
    } catch (IOException e) {
      throw new AssertionError("cannot unpack " + zip + " into " + home + ": " + e.getMessage(), e);
    }
  }

  private static Path zip(String version) {
    Path zip =
        Path.of(
            System.getProperty("user.home"),
            ".m2/repository/org/keycloak/keycloak-quarkus-dist",
            version,
            "keycloak-quarkus-dist-" + version + ".zip");
    if (Files.isRegularFile(zip)) {
      return zip;
    }
    String artifact = "org.keycloak:keycloak-quarkus-dist:" + version + ":zip";
    try {
      Process mvn =
          new ProcessBuilder(
                  "mvn",
                  "-B",
                  "-q",
                  "dependency:get",
                  "-Dtransitive=false",
                  "-Dartifact=" + artifact)
              .inheritIO()
              .start();
      if (!mvn.waitFor(15, TimeUnit.MINUTES)) {
        mvn.destroyForcibly();
      }
    } catch (IOException e) {
      throw new AssertionError(
          "cannot run Maven to fetch Keycloak (" + artifact + "): " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    if (!Files.isRegularFile(zip)) {
      throw new AssertionError(
          "Keycloak is needed by the OAuth tests and could not be fetched: "
              + zip
              + " is missing; fetch it with `mvn dependency:get -Dtransitive=false -Dartifact="
              + artifact
              + "`");
    }
    return zip;
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (var paths = Files.walk(root)) {
      for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
