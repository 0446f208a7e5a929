package dev.svc.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.Instance;
import dev.svc.log.Level;
import dev.svc.testing.CapturedLog;
import dev.svc.testing.KeycloakFixture;
import dev.svc.testing.McpHttpClient;
import dev.svc.testing.McpHttpClient.Reply;
import dev.svc.testing.RawHttp;
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
import tools.jackson.databind.JsonNode;

/**
 * {@code server.auth} against a real OpenID provider: Keycloak issues tokens by the
 * client-credentials grant over HTTP, as it would to any client, and svc serves {@code /mcp} (both
 * MCP revisions) and {@code /agent/*} only to a token for it with the required scope.
 */
class McpOAuthIT {
  private static final String ECHO_TOOL =
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
      == app/tools/lucky/config.terse
      description: A random number, cached for a minute per caller.
      use: db
      statement: SELECT random() AS r
      cache: {enabled: true, ttl: 60}
      == app/tools/token_free/config.terse
      description: Served only when the caller's token did not reach the auth plugin.
      use: db
      statement: SELECT 1 AS ok
      auth:
        plugin: no_token
      == app/plugins/no_token.ts
      export default ({ headers }: { headers: Record<string, string> }) =>
        !("authorization" in headers);
      """;

  private static final String AUTH =
      """
      server:
        allowed_hosts: [svc.example.com]
        auth:
          plugin: oauth
          policy:
            issuer: "{{ env.OIDC_ISSUER }}"
            audience: https://svc.test/mcp
            scopes: [profile]
      """;

  @TempDir static Path dir;
  @TempDir static Path unreachableDir;
  static KeycloakFixture keycloak;
  static Instance instance;
  static String base;

  @BeforeAll
  static void start() {
    keycloak = KeycloakFixture.get();
    instance =
        RunningProject.start(
            dir,
            "== .svc\nname: guarded\nversion: \"1.0.0\"\n" + AUTH + ECHO_TOOL,
            Map.of("OIDC_ISSUER", keycloak.issuer()));
    base = instance.baseUrl();
  }

  @AfterAll
  static void stop() {
    if (instance != null) {
      instance.close();
    }
  }

  private static String goodToken() {
    return keycloak.token("svc-client", "svc-secret");
  }

  private static final String ECHO = "{\"name\":\"echo\",\"arguments\":{\"n\":7}}";

  @Test
  void aRequestWithoutATokenGets401PointingAtTheMetadata() {
    Reply reply = new McpHttpClient(base).initialize();
    assertThat(reply.status()).isEqualTo(401);
    assertThat(reply.header("WWW-Authenticate"))
        .hasValue(
            "Bearer resource_metadata=\""
                + base
                + "/.well-known/oauth-protected-resource/mcp\", scope=\"profile\"");
    assertThat(reply.json().path("id").asInt()).isZero();
    assertThat(reply.json().path("error").path("code").asInt()).isEqualTo(401);
    assertThat(reply.json().path("error").path("message").asString())
        .isEqualTo("Unauthorized: this server requires an OAuth access token");
  }

  @Test
  void theProtectedResourceMetadataNamesTheIssuerAtBothWellKnownPaths() {
    McpHttpClient client = new McpHttpClient(base);
    for (String path :
        new String[] {
          "/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"
        }) {
      Reply reply = client.send(HttpRequest.newBuilder(URI.create(base + path)).GET().build());
      assertThat(reply.status()).as(path).isEqualTo(200);
      JsonNode metadata = reply.json();
      assertThat(metadata.path("resource").asString()).isEqualTo(base + "/mcp");
      assertThat(metadata.path("authorization_servers").get(0).asString())
          .isEqualTo(keycloak.issuer());
      assertThat(metadata.path("scopes_supported").toString()).isEqualTo("[\"profile\"]");
      assertThat(metadata.path("bearer_methods_supported").toString()).isEqualTo("[\"header\"]");
    }
    Reply forwarded =
        client.send(
            HttpRequest.newBuilder(URI.create(base + "/.well-known/oauth-protected-resource/mcp"))
                .header("X-Forwarded-Proto", "https")
                .header("X-Forwarded-Host", "svc.example.com")
                .GET()
                .build());
    assertThat(forwarded.json().path("resource").asString())
        .isEqualTo("https://svc.example.com/mcp");
    assertThat(forwarded.header("Vary")).contains("Host, X-Forwarded-Host, X-Forwarded-Proto");
    // a forwarded host that server.allowed_hosts does not name, or a scheme that is not http(s),
    // is not written into the answer: a cache in front could serve it to other clients
    Reply spoofed =
        client.send(
            HttpRequest.newBuilder(URI.create(base + "/.well-known/oauth-protected-resource/mcp"))
                .header("X-Forwarded-Proto", "javascript")
                .header("X-Forwarded-Host", "evil.example")
                .GET()
                .build());
    assertThat(spoofed.json().path("resource").asString()).isEqualTo(base + "/mcp");
    Reply quoted =
        client.send(
            HttpRequest.newBuilder(URI.create(base + "/mcp"))
                .header("X-Forwarded-Host", "svc.example.com\"/x")
                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                .build());
    assertThat(quoted.status()).isEqualTo(401);
    assertThat(quoted.header("WWW-Authenticate").orElseThrow())
        .contains("resource_metadata=\"" + base + "/.well-known/oauth-protected-resource/mcp\"");
  }

  @Test
  void aBrowserClientMayPreflightTheMetadataWithoutAToken() {
    Reply preflight =
        new McpHttpClient(base)
            .send(
                HttpRequest.newBuilder(
                        URI.create(base + "/.well-known/oauth-protected-resource/mcp"))
                    .header("Origin", base)
                    .header("Access-Control-Request-Method", "GET")
                    .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                    .build());
    assertThat(preflight.status()).isEqualTo(204);
    assertThat(preflight.header("Access-Control-Allow-Origin")).contains("*");
    assertThat(preflight.header("Access-Control-Allow-Methods")).contains("GET, HEAD, OPTIONS");
  }

  @Test
  void aGoodTokenIsServedInASessionAndStateless() {
    String token = goodToken();
    McpHttpClient session = new McpHttpClient(base).bearer(token);
    assertThat(session.initialize().status()).isEqualTo(200);
    JsonNode result = session.call("echo", "{\"n\":7}");
    assertThat(result.path("result").path("isError").asBoolean()).isFalse();
    assertThat(result.path("result").toString()).contains("7");

    Reply stateless = new StatelessMcpClient(base).bearer(token).post("tools/call", ECHO);
    assertThat(stateless.status()).isEqualTo(200);
    assertThat(stateless.body()).contains("\"n\":7");
  }

  @Test
  void aSessionBelongsToTheSubjectThatBeganIt() {
    McpHttpClient alice = new McpHttpClient(base).bearer(goodToken());
    assertThat(alice.initialize().status()).isEqualTo(200);
    String session = alice.session().orElseThrow();

    McpHttpClient refreshed = new McpHttpClient(base).bearer(goodToken());
    refreshed.useSession(session);
    assertThat(refreshed.call("echo", "{\"n\":1}").path("result").path("isError").asBoolean())
        .as("the same subject with a new token keeps its session")
        .isFalse();

    McpHttpClient other =
        new McpHttpClient(base).bearer(keycloak.token("second-client", "second-secret"));
    other.useSession(session);
    Reply hijack = other.post(other.requestBody("tools/list", "{}"));
    assertThat(hijack.status()).as("another subject cannot use it").isEqualTo(404);
    assertThat(hijack.json().path("error").path("code").asInt()).isEqualTo(-32001);
  }

  @Test
  void aTokenForAnotherAudienceIsRefused() {
    Reply reply =
        new StatelessMcpClient(base)
            .bearer(keycloak.token("other-client", "other-secret"))
            .post("tools/call", ECHO);
    assertThat(reply.status()).isEqualTo(401);
    assertThat(reply.header("WWW-Authenticate").orElseThrow())
        .contains("error=\"invalid_token\"")
        .contains("error_description=\"the token is not for this server");
  }

  @Test
  void aTokenWithoutTheScopeGets403InsufficientScope() {
    Reply reply =
        new McpHttpClient(base)
            .bearer(keycloak.token("narrow-client", "narrow-secret"))
            .initialize();
    assertThat(reply.status()).isEqualTo(403);
    assertThat(reply.header("WWW-Authenticate").orElseThrow())
        .contains("error=\"insufficient_scope\"")
        .contains("scope=\"profile\"");
    assertThat(reply.json().path("error").path("code").asInt()).isEqualTo(403);
  }

  @Test
  void theTokenReachesNeitherScriptsNorPluginsOnlyItsSubjectDoes() {
    McpHttpClient client = new McpHttpClient(base).bearer(goodToken());
    client.initialize();
    JsonNode result = client.call("token_free", "{}");
    assertThat(result.path("result").path("isError").asBoolean()).as(result.toString()).isFalse();
  }

  @Test
  void cachedResultsAreKeptApartPerSubject() {
    StatelessMcpClient first = new StatelessMcpClient(base).bearer(goodToken());
    StatelessMcpClient again = new StatelessMcpClient(base).bearer(goodToken());
    StatelessMcpClient second =
        new StatelessMcpClient(base).bearer(keycloak.token("second-client", "second-secret"));
    String call = "{\"name\":\"lucky\",\"arguments\":{}}";
    String mine = content(first.post("tools/call", call));
    assertThat(mine).as("a result, not an error").contains("\"text\"").doesNotContain("isError");
    assertThat(content(again.post("tools/call", call)))
        .as("the same subject with a new token gets its cached result")
        .isEqualTo(mine);
    assertThat(content(second.post("tools/call", call)))
        .as("another subject does not see it")
        .isNotEqualTo(mine);
  }

  private static String content(Reply reply) {
    return reply.json().path("result").path("content").toString();
  }

  @Test
  void aRefusalIsLoggedWithItsReasonButNeverTheToken() {
    String token = keycloak.token("other-client", "other-secret");
    String text;
    try (CapturedLog log = CapturedLog.at(Level.DEBUG)) {
      new StatelessMcpClient(base).bearer(token).post("tools/call", ECHO);
      text = log.text();
    }
    assertThat(text).contains("request refused").contains("the token is not for this server");
    assertThat(text).doesNotContain(token).doesNotContain(token.split("\\.")[2]);
  }

  @Test
  void aTamperedTokenIsRefused() {
    String token = goodToken();
    String[] parts = token.split("\\.");
    String forged = parts[0] + "." + parts[1] + "." + new StringBuilder(parts[2]).reverse();
    Reply reply = new StatelessMcpClient(base).bearer(forged).post("tools/call", ECHO);
    assertThat(reply.status()).isEqualTo(401);
    assertThat(reply.header("WWW-Authenticate").orElseThrow()).contains("error=\"invalid_token\"");
  }

  @Test
  void malformedAndForeignAuthorizationHeadersGetPreciseAnswers() {
    McpHttpClient client = new McpHttpClient(base);
    String body = client.requestBody("tools/list", "{}");
    Reply bare = client.post(body, "Authorization", "Bearer");
    assertThat(bare.status()).isEqualTo(400);
    assertThat(bare.header("WWW-Authenticate").orElseThrow()).contains("error=\"invalid_request\"");
    Reply basic = client.post(body, "Authorization", "Basic dXNlcjpwYXNz");
    assertThat(basic.status()).isEqualTo(401);
    assertThat(basic.json().path("error").path("message").asString())
        .isEqualTo(
            "Unauthorized: this server accepts only Bearer access tokens in the Authorization"
                + " header");
  }

  @Test
  void aHugeAuthorizationHeaderIsRefusedAndTheServerGoesOn() throws Exception {
    try (RawHttp raw = RawHttp.connect(instance.port())) {
      raw.send(
          "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
              + "a".repeat(64 * 1024)
              + "\r\nContent-Length: 2\r\n\r\n{}");
      assertThat(raw.read().status()).isEqualTo(431);
    }
    assertThat(new McpHttpClient(base).bearer(goodToken()).initialize().status()).isEqualTo(200);
  }

  @Test
  void agentsAreGuardedButHeartbeatAndMetricsStayOpen() {
    McpHttpClient client = new McpHttpClient(base);
    Reply agent =
        client.send(
            HttpRequest.newBuilder(URI.create(base + "/agent/helper"))
                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                .build());
    assertThat(agent.status()).isEqualTo(401);
    assertThat(agent.header("WWW-Authenticate").orElseThrow())
        .startsWith(
            "Bearer resource_metadata=\"" + base + "/.well-known/oauth-protected-resource\"");
    Reply served =
        client.send(
            HttpRequest.newBuilder(URI.create(base + "/agent/helper"))
                .header("Authorization", "Bearer " + goodToken())
                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                .build());
    assertThat(served.status()).as("past the gate: no such agent").isEqualTo(404);
    assertThat(
            client.send(HttpRequest.newBuilder(URI.create(base + "/heartbeat")).build()).status())
        .isEqualTo(200);
    assertThat(client.send(HttpRequest.newBuilder(URI.create(base + "/metrics")).build()).status())
        .isEqualTo(200);
  }

  @Test
  void anUnreachableIssuerGets503NotA500() throws Exception {
    int closed;
    try (ServerSocket socket = new ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    try (Instance cut =
        RunningProject.start(
            unreachableDir,
            "== .svc\nname: cut\nversion: \"1.0.0\"\n" + AUTH + ECHO_TOOL,
            Map.of("OIDC_ISSUER", "http://127.0.0.1:" + closed + "/realms/none"))) {
      Reply reply =
          new StatelessMcpClient(cut.baseUrl()).bearer(goodToken()).post("tools/call", ECHO);
      assertThat(reply.status()).isEqualTo(503);
      assertThat(reply.header("Retry-After")).hasValue("30");
      assertThat(reply.json().path("error").path("message").asString())
          .contains("the authorization server's keys are out of reach");
    }
  }
}
