package dev.svc.protocol.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.auth.OAuthPolicy;
import dev.svc.model.Agent;
import dev.svc.model.Model;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/** The security objects of the agent cards (A2A v1 §4.5): with {@code server.auth} and without. */
class AgentCardsTest {
  private static final String BASE = "https://svc.example.com";
  private static final OAuthPolicy POLICY =
      new OAuthPolicy(
          "https://id.example.com/realms/shop",
          "https://svc.example.com/mcp",
          List.of("mcp:tools", "profile"),
          Optional.empty());

  @TempDir Path dir;

  private Model model() {
    return ProjectFixture.model(dir, AgentProjects.SHOP.replace("{{MODEL}}", "http://127.0.0.1:9"));
  }

  private static Agent weather(Model model) {
    return model.agent("weather").orElseThrow();
  }

  @Test
  void withoutServerAuthTheCardHasNoSchemesAndNoRequirements() {
    Model model = model();
    ObjectNode card =
        AgentCards.card(weather(model), model, BASE, List.of("get_weather"), Optional.empty());
    assertThat(card.path("securitySchemes").toString()).isEqualTo("{}");
    assertThat(card.path("securityRequirements").toString()).isEqualTo("[]");
  }

  @Test
  void withServerAuthTheCardNamesTheIssuersDiscoveryDocumentAndRequiresItsScopes() {
    Model model = model();
    ObjectNode card =
        AgentCards.card(weather(model), model, BASE, List.of("get_weather"), Optional.of(POLICY));
    assertThat(card.path("securitySchemes").toString())
        .isEqualTo(
            "{\"oauth\":{\"openIdConnectSecurityScheme\":{\"description\":\"An OAuth 2.1 access"
                + " token (JWT) from https://id.example.com/realms/shop whose audience (aud)"
                + " contains https://svc.example.com/mcp, sent as Authorization: Bearer"
                + " <token>.\",\"openIdConnectUrl\":"
                + "\"https://id.example.com/realms/shop/.well-known/openid-configuration\"}}}");
    assertThat(card.path("securityRequirements").toString())
        .isEqualTo("[{\"schemes\":{\"oauth\":{\"list\":[\"mcp:tools\",\"profile\"]}}}]");
  }

  @Test
  void aRequirementWithoutScopesStillNamesTheScheme() {
    Model model = model();
    OAuthPolicy noScopes =
        new OAuthPolicy("https://id.example.com/", "svc", List.of(), Optional.empty());
    ObjectNode card =
        AgentCards.card(weather(model), model, BASE, List.of(), Optional.of(noScopes));
    assertThat(card.path("securityRequirements").toString())
        .isEqualTo("[{\"schemes\":{\"oauth\":{\"list\":[]}}}]");
    assertThat(
            card.path("securitySchemes")
                .path("oauth")
                .path("openIdConnectSecurityScheme")
                .path("openIdConnectUrl")
                .asString())
        .as("one slash between the issuer and the well-known path")
        .isEqualTo("https://id.example.com/.well-known/openid-configuration");
  }

  @Test
  void theExtendedCardAdvertisesTheSameSecurity() {
    Model model = model();
    ObjectNode card =
        AgentCards.extended(
            weather(model), model, BASE, List.of("get_weather"), Optional.of(POLICY));
    ObjectNode publicCard =
        AgentCards.card(weather(model), model, BASE, List.of("get_weather"), Optional.of(POLICY));
    assertThat(card.path("securitySchemes")).isEqualTo(publicCard.path("securitySchemes"));
    assertThat(card.path("securityRequirements"))
        .isEqualTo(publicCard.path("securityRequirements"));
  }
}
