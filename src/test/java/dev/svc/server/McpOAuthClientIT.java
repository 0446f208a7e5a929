package dev.svc.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.Instance;
import dev.svc.testing.KeycloakFixture;
import dev.svc.testing.NodeMcpClients;
import dev.svc.testing.RunningProject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The official MCP TypeScript SDK ({@value NodeMcpClients#SDK}) as an OAuth client of svc behind
 * {@code server.auth}, with Keycloak as the authorization server: given only svc's URL, the issuer
 * it trusts and its client credentials, the SDK meets the 401, reads the protected-resource
 * metadata it points at, discovers Keycloak's metadata, gets a token by the client-credentials
 * grant and calls a tool. The test mints no token and tells the client no metadata URL.
 */
class McpOAuthClientIT {
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

  @TempDir static Path dir;
  static KeycloakFixture keycloak;
  static Instance instance;
  static NodeMcpClients clients;
  static String mcp;

  @BeforeAll
  static void start() {
    clients = NodeMcpClients.install();
    keycloak = KeycloakFixture.get();
    instance = RunningProject.start(dir, PROJECT, Map.of("OIDC_ISSUER", keycloak.issuer()));
    mcp = instance.baseUrl() + "/mcp";
  }

  @AfterAll
  static void stop() {
    if (instance != null) {
      instance.close();
    }
  }

  private static List<String> exchanges(JsonNode report) {
    List<String> lines = new ArrayList<>();
    for (JsonNode exchange : report.path("wire")) {
      lines.add(
          exchange.path("request").asString()
              + " "
              + exchange.path("url").asString()
              + " -> "
              + exchange.path("status").asInt()
              + (exchange.path("bearer").asBoolean() ? " (bearer)" : ""));
    }
    return lines;
  }

  @Test
  void theSdkDiscoversKeycloakFromThe401GetsATokenAndCallsATool() {
    JsonNode report =
        clients.runOAuth(mcp, keycloak.issuer(), "svc-client", "svc-secret", "echo", "{\"n\":7}");
    List<String> wire = exchanges(report);
    assertThat(report.path("connected").asBoolean()).as("%s\n%s", report, wire).isTrue();
    assertThat(report.path("result").path("isError").asBoolean()).as(report.toString()).isFalse();
    assertThat(report.path("result").path("content").toString()).contains("\\\"n\\\":7");
    assertThat(report.path("tokenType").asString()).isEqualToIgnoringCase("bearer");

    String base = instance.baseUrl();
    assertThat(wire.getFirst())
        .as("the first request goes without a token and is refused")
        .isEqualTo("POST initialize " + mcp + " -> 401");
    assertThat(report.path("wire").get(0).path("challenge").asString())
        .contains("resource_metadata=\"" + base + "/.well-known/oauth-protected-resource/mcp\"");
    assertThat(wire)
        .as("the metadata the challenge names, then Keycloak's, then a token")
        .contains("GET " + base + "/.well-known/oauth-protected-resource/mcp -> 200")
        .anyMatch(line ->
            line.startsWith("GET " + "http://127.0.0.1:")
                && line.contains("/.well-known/")
                && line.contains("realms/" + KeycloakFixture.REALM)
                && line.endsWith("-> 200"))
        .contains(
            "POST grant_type=client_credentials "
                + keycloak.issuer()
                + "/protocol/openid-connect/token -> 200")
        .contains("POST initialize " + mcp + " -> 200 (bearer)")
        .contains("POST tools/call " + mcp + " -> 200 (bearer)");
  }

  @Test
  void aClientWhoseTokensAreForAnotherAudienceIsRefused() {
    JsonNode report =
        clients.runOAuth(
            mcp, keycloak.issuer(), "other-client", "other-secret", "echo", "{\"n\":7}");
    List<String> wire = exchanges(report);
    assertThat(report.has("result")).as("no tool was called: %s", wire).isFalse();
    assertThat(report.path("error").asString()).as(report.toString()).isNotEmpty();
    assertThat(wire)
        .as("Keycloak gave it a token, svc refused it")
        .contains(
            "POST grant_type=client_credentials "
                + keycloak.issuer()
                + "/protocol/openid-connect/token -> 200")
        .contains("POST initialize " + mcp + " -> 401 (bearer)")
        .noneMatch(line -> line.startsWith("POST tools/call"))
        .noneMatch(line -> line.contains(mcp) && line.endsWith("-> 200 (bearer)"));
    assertThat(report.path("wire").toString())
        .contains("error=\\\"invalid_token\\\"")
        .contains("the token is not for this server");
  }
}
