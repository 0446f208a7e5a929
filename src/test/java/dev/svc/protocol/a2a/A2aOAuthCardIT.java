package dev.svc.protocol.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.Instance;
import dev.svc.testing.KeycloakFixture;
import dev.svc.testing.McpHttpClient;
import dev.svc.testing.McpHttpClient.Reply;
import dev.svc.testing.RunningProject;
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
 * With {@code server.auth} an agent's card stays public, since it is where a client learns how to
 * authenticate, and says so in A2A v1's security objects; its OpenID Connect URL is the real
 * provider's discovery document (Keycloak), and the agent itself answers only a token for svc.
 */
class A2aOAuthCardIT {
  private static final String PROJECT =
      """
      == .svc
      name: guarded
      version: "1.0.0"
      server:
        auth:
          plugin: oauth
          policy:
            issuer: "{{ env.OIDC_ISSUER }}"
            audience: https://svc.test/mcp
            scopes: [profile]
      == app/agents/helper/config.terse
      description: Helps.
      instruction: You help.
      model:
        provider: openai_compatible
        model: small
        options:
          base_url: http://127.0.0.1:9/v1
      tool_access:
        mode: allow_none
      """;

  @TempDir static Path dir;
  static KeycloakFixture keycloak;
  static Instance instance;
  static String base;

  @BeforeAll
  static void start() {
    keycloak = KeycloakFixture.get();
    instance = RunningProject.start(dir, PROJECT, Map.of("OIDC_ISSUER", keycloak.issuer()));
    base = instance.baseUrl();
  }

  @AfterAll
  static void stop() {
    if (instance != null) {
      instance.close();
    }
  }

  private static Reply get(String path) {
    return new McpHttpClient(base)
        .send(HttpRequest.newBuilder(URI.create(base + path)).GET().build());
  }

  @Test
  void theCardIsServedWithoutATokenAndAdvertisesTheIssuer() {
    for (String path :
        new String[] {
          "/agent/helper/.well-known/agent-card.json", "/.well-known/agent-card.json"
        }) {
      Reply reply = get(path);
      assertThat(reply.status()).as(path).isEqualTo(200);
      JsonNode card = reply.json();
      JsonNode scheme = card.path("securitySchemes").path("oauth");
      assertThat(scheme.path("openIdConnectSecurityScheme").path("openIdConnectUrl").asString())
          .isEqualTo(keycloak.issuer() + "/.well-known/openid-configuration");
      assertThat(card.path("securityRequirements").toString())
          .isEqualTo("[{\"schemes\":{\"oauth\":{\"list\":[\"profile\"]}}}]");
    }
  }

  @Test
  void theCardsDiscoveryUrlIsTheProvidersOwnDocument() {
    String url =
        get("/agent/helper/.well-known/agent-card.json")
            .json()
            .path("securitySchemes")
            .path("oauth")
            .path("openIdConnectSecurityScheme")
            .path("openIdConnectUrl")
            .asString();
    Reply discovery = new McpHttpClient(base).send(HttpRequest.newBuilder(URI.create(url)).build());
    assertThat(discovery.status()).isEqualTo(200);
    assertThat(discovery.json().path("issuer").asString()).isEqualTo(keycloak.issuer());
    assertThat(discovery.json().path("token_endpoint").asString()).startsWith(keycloak.issuer());
  }

  @Test
  void theAgentAnswersOnlyATokenAndItsExtendedCardCarriesTheSameSecurity() {
    String request =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetExtendedAgentCard\",\"params\":{}}";
    McpHttpClient client = new McpHttpClient(base);
    Reply refused =
        client.send(
            HttpRequest.newBuilder(URI.create(base + "/agent/helper"))
                .header("Content-Type", "application/json")
                .header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString(request))
                .build());
    assertThat(refused.status()).isEqualTo(401);
    assertThat(refused.header("WWW-Authenticate").orElseThrow())
        .startsWith(
            "Bearer resource_metadata=\"" + base + "/.well-known/oauth-protected-resource\"");

    Reply extended =
        client.send(
            HttpRequest.newBuilder(URI.create(base + "/agent/helper"))
                .header("Content-Type", "application/json")
                .header("A2A-Version", "1.0")
                .header("Authorization", "Bearer " + keycloak.token("svc-client", "svc-secret"))
                .POST(HttpRequest.BodyPublishers.ofString(request))
                .build());
    assertThat(extended.status()).as(extended.body()).isEqualTo(200);
    JsonNode card = extended.json().path("result");
    assertThat(card.path("securitySchemes"))
        .isEqualTo(get("/agent/helper/.well-known/agent-card.json").json().path("securitySchemes"));
    assertThat(card.path("securityRequirements").toString())
        .isEqualTo("[{\"schemes\":{\"oauth\":{\"list\":[\"profile\"]}}}]");
  }
}
