package dev.svc.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.Instance;
import dev.svc.log.Level;
import dev.svc.testing.CapturedLog;
import dev.svc.testing.KeycloakFixture;
import dev.svc.testing.McpHttpClient;
import dev.svc.testing.McpHttpClient.Reply;
import dev.svc.testing.RunningProject;
import dev.svc.testing.StatelessMcpClient;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code server.auth.policy.introspection} against a real Keycloak: svc asks Keycloak's
 * introspection endpoint (discovered from the issuer) about every token ({@code tokens: all}, as
 * Keycloak issues only JWTs), so a token revoked at Keycloak is refused, an opaque string is
 * refused, and an authorization server svc cannot ask makes 503, not 500.
 */
class McpIntrospectionIT {
  private static final String TOOL =
      """
      == app/adapters/db.terse
      connector: sqlite
      connection_string: ":memory:"
      == app/tools/echo/config.terse
      description: Echo a number.
      use: db
      statement: SELECT {{ inputs.n }} AS n
      inputs:
        n: {type: int}
      """;

  private static final String ECHO = "{\"name\":\"echo\",\"arguments\":{\"n\":7}}";

  @TempDir static Path dir;
  @TempDir static Path wrongSecretDir;
  @TempDir static Path unreachableDir;
  @TempDir static Path opaqueDir;
  static KeycloakFixture keycloak;
  static Instance instance;

  /** A root file introspecting with the secret from {@code INTROSPECTION_SECRET}. */
  private static String project(String name, String extra) {
    return """
    == .svc
    name: %s
    version: "1.0.0"
    server:
      auth:
        plugin: oauth
        policy:
          issuer: "{{ env.OIDC_ISSUER }}"
          audience: https://svc.test/mcp
          scopes: [profile]
          introspection:
            client_id: "%s"
            client_secret: "{{ env.INTROSPECTION_SECRET }}"
    %s
    """
            .formatted(name, KeycloakFixture.INTROSPECTION_CLIENT, extra.indent(8).stripTrailing())
        + TOOL;
  }

  private static Map<String, String> env(String secret) {
    return Map.of("OIDC_ISSUER", keycloak.issuer(), "INTROSPECTION_SECRET", secret);
  }

  @BeforeAll
  static void start() {
    keycloak = KeycloakFixture.get();
    instance =
        RunningProject.start(
            dir,
            project("introspecting", "tokens: all\ncache_seconds: 0"),
            env(KeycloakFixture.INTROSPECTION_SECRET));
  }

  @AfterAll
  static void stop() {
    if (instance != null) {
      instance.close();
    }
  }

  private static String token() {
    return keycloak.token("svc-client", "svc-secret");
  }

  private static Reply call(String base, String token) {
    return new StatelessMcpClient(base).bearer(token).post("tools/call", ECHO);
  }

  @Test
  void anActiveTokenIsServed() {
    McpHttpClient session = new McpHttpClient(instance.baseUrl()).bearer(token());
    assertThat(session.initialize().status()).isEqualTo(200);
    assertThat(session.call("echo", "{\"n\":7}").path("result").toString()).contains("7");
  }

  @Test
  void aTokenRevokedAtTheAuthorizationServerIsRefusedAtOnce() {
    String used = token();
    assertThat(call(instance.baseUrl(), used).status()).isEqualTo(200);
    keycloak.revoke(used, "svc-client", "svc-secret");
    Reply afterUse = call(instance.baseUrl(), used);
    assertThat(afterUse.status()).as("cache_seconds: 0").isEqualTo(401);
    assertThat(afterUse.header("WWW-Authenticate").orElseThrow())
        .contains("error=\"invalid_token\"")
        .contains(
            "error_description=\"the authorization server says the token is not active (expired,"
                + " revoked or unknown)\"");

    String neverUsed = token();
    keycloak.revoke(neverUsed, "svc-client", "svc-secret");
    assertThat(call(instance.baseUrl(), neverUsed).status()).isEqualTo(401);
  }

  @Test
  void aTokenForAnotherAudienceIsRefusedByKeycloakOrBySvc() {
    Reply reply = call(instance.baseUrl(), keycloak.token("other-client", "other-secret"));
    assertThat(reply.status()).isEqualTo(401);
    assertThat(reply.header("WWW-Authenticate").orElseThrow()).contains("error=\"invalid_token\"");
  }

  @Test
  void aTokenWithoutTheScopeStillGets403() {
    Reply reply = call(instance.baseUrl(), keycloak.token("narrow-client", "narrow-secret"));
    assertThat(reply.status()).isEqualTo(403);
    assertThat(reply.header("WWW-Authenticate").orElseThrow())
        .contains("error=\"insufficient_scope\"");
  }

  @Test
  void aRandomOpaqueStringIsAnInvalidToken() {
    Reply reply = call(instance.baseUrl(), "not-a-token-at-all-" + System.nanoTime());
    assertThat(reply.status()).isEqualTo(401);
    assertThat(reply.header("WWW-Authenticate").orElseThrow())
        .contains("error=\"invalid_token\"")
        .contains("not active");
  }

  @Test
  void withOpaqueOnlyJwtsAreVerifiedHereAndOtherTokensIntrospected() {
    try (Instance opaque =
        RunningProject.start(
            opaqueDir, project("opaque", ""), env(KeycloakFixture.INTROSPECTION_SECRET))) {
      String revoked = token();
      keycloak.revoke(revoked, "svc-client", "svc-secret");
      assertThat(call(opaque.baseUrl(), revoked).status())
          .as("a JWT is verified by its signature: its revocation is not seen")
          .isEqualTo(200);
      Reply random = call(opaque.baseUrl(), "opaque-" + System.nanoTime());
      assertThat(random.status()).isEqualTo(401);
      assertThat(random.header("WWW-Authenticate").orElseThrow()).contains("not active");
    }
  }

  @Test
  void aWrongClientSecretGets503WithAClearMessageAndNeverLeaksTheSecretOrToken() {
    String token = token();
    try (Instance wrong =
        RunningProject.start(
            wrongSecretDir,
            project("wrong", "tokens: all"),
            env("not-the-secret-" + System.nanoTime()))) {
      Reply reply;
      String text;
      try (CapturedLog log = CapturedLog.at(Level.DEBUG)) {
        reply = call(wrong.baseUrl(), token);
        text = log.text();
      }
      assertThat(reply.status()).isEqualTo(503);
      assertThat(reply.header("Retry-After")).hasValue("30");
      assertThat(reply.json().path("error").path("message").asString())
          .isEqualTo(
              "the access token cannot be checked now: the authorization server cannot be asked"
                  + " about it (token introspection); retry later");
      assertThat(text)
          .contains("refused svc's client credentials (HTTP 401, error `invalid_client`)")
          .doesNotContain(token)
          .doesNotContain(token.split("\\.")[2])
          .doesNotContain("not-the-secret-");
      assertThat(call(wrong.baseUrl(), token).status()).as("and again").isEqualTo(503);
      assertThat(
              new McpHttpClient(wrong.baseUrl())
                  .send(HttpRequest.newBuilder(URI.create(wrong.baseUrl() + "/heartbeat")).build())
                  .status())
          .isEqualTo(200);
    }
  }

  @Test
  void anUnreachableIntrospectionEndpointGets503NotA500() throws Exception {
    int closed;
    try (ServerSocket socket = new ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    try (Instance cut =
        RunningProject.start(
            unreachableDir,
            project("cut", "tokens: all\nendpoint: http://127.0.0.1:" + closed + "/introspect"),
            env(KeycloakFixture.INTROSPECTION_SECRET))) {
      Reply reply = call(cut.baseUrl(), token());
      assertThat(reply.status()).isEqualTo(503);
      assertThat(reply.json().path("error").path("message").asString())
          .contains("cannot be asked about it");
    }
  }
}
