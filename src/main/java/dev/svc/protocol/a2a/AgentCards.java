package dev.svc.protocol.a2a;

import dev.svc.SvcVersion;
import dev.svc.agent.AgentTools;
import dev.svc.auth.OAuthPolicy;
import dev.svc.json.Json;
import dev.svc.model.Agent;
import dev.svc.model.Model;
import dev.svc.model.Tool;
import dev.svc.runtime.ToolSearch;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Agent cards (A2A v1 {@code AgentCard}, §8). The public card has every required field, one
 * JSON-RPC interface at the URL the client used, the capabilities svc really serves, and one skill
 * built from the agent's description and tools. The extended card adds one skill per tool the agent
 * may call. With {@code server.auth} both cards say how to authenticate (§4.5 security objects):
 * one OpenID Connect scheme, {@value #SCHEME}, and one requirement naming it with the required
 * scopes; without it, both are empty.
 */
final class AgentCards {
  /** The name of the one security scheme of the card with {@code server.auth}. */
  static final String SCHEME = "oauth";

  private AgentCards() {}

  static ObjectNode card(
      Agent agent, Model model, String baseUrl, List<String> tools, Optional<OAuthPolicy> auth) {
    ObjectNode card = Json.NODES.objectNode();
    String description = description(agent, model);
    card.put("name", agent.name());
    card.put("description", description);
    ObjectNode endpoint = card.putArray("supportedInterfaces").addObject();
    endpoint.put("url", baseUrl + "/agent/" + agent.name());
    endpoint.put("protocolBinding", "JSONRPC");
    endpoint.put("protocolVersion", A2aServer.PROTOCOL_VERSION);
    card.putObject("provider").put("organization", model.service().name()).put("url", baseUrl);
    card.put("version", model.service().version().orElse(SvcVersion.current()));
    ObjectNode capabilities = card.putObject("capabilities");
    capabilities.put("streaming", true);
    capabilities.put("pushNotifications", true);
    capabilities.putArray("extensions");
    capabilities.put("extendedAgentCard", true);
    ObjectNode schemes = card.putObject("securitySchemes");
    ArrayNode requirements = card.putArray("securityRequirements");
    auth.ifPresent(policy -> {
      schemes.set(SCHEME, scheme(policy));
      ArrayNode scopes =
          requirements.addObject().putObject("schemes").putObject(SCHEME).putArray("list");
      policy.scopes().forEach(scopes::add);
    });
    card.putArray("defaultInputModes").add("text/plain").add("application/json");
    card.putArray("defaultOutputModes").add("text/plain");
    ArrayNode skills = card.putArray("skills");
    ObjectNode skill = skills.addObject();
    skill.put("id", agent.name());
    skill.put("name", agent.name());
    skill.put(
        "description",
        tools.isEmpty() ? description : description + " Tools: " + String.join(", ", tools) + ".");
    ArrayNode tags = skill.putArray("tags").add("agent");
    tools.forEach(tags::add);
    skill.putArray("inputModes").add("text/plain").add("application/json");
    skill.putArray("outputModes").add("text/plain");
    return card;
  }

  /**
   * A2A v1 {@code SecurityScheme} (a oneof: its JSON has one key, the chosen variant): OpenID
   * Connect with the issuer's discovery document, where svc itself finds the issuer's keys. Not
   * {@code oauth2SecurityScheme}: its {@code flows} must name a token URL, which only that document
   * says, and the card is built without calling the issuer. The audience tokens must carry is in
   * the description: A2A has no field for it, and clients must ask the issuer for it (RFC 8707).
   */
  static ObjectNode scheme(OAuthPolicy policy) {
    ObjectNode scheme = Json.NODES.objectNode();
    scheme
        .putObject("openIdConnectSecurityScheme")
        .put(
            "description",
            "An OAuth 2.1 access token (JWT) from "
                + policy.issuer()
                + " whose audience (aud) contains "
                + policy.audience()
                + ", sent as Authorization: Bearer <token>.")
        .put("openIdConnectUrl", policy.discoveryUrl());
    return scheme;
  }

  /** The public card plus one skill per tool the agent may call. */
  static ObjectNode extended(
      Agent agent, Model model, String baseUrl, List<String> tools, Optional<OAuthPolicy> auth) {
    ObjectNode card = card(agent, model, baseUrl, tools, auth);
    ArrayNode skills = (ArrayNode) card.get("skills");
    for (String name : tools) {
      Optional<Tool> tool = model.tool(name);
      ObjectNode skill = skills.addObject();
      skill.put("id", agent.name() + "/" + name);
      skill.put("name", name);
      skill.put("description", tool.map(Tool::description).orElse(ToolSearch.DESCRIPTION));
      skill.putArray("tags").add("tool");
      skill.putArray("inputModes").add("text/plain").add("application/json");
      skill.putArray("outputModes").add("text/plain");
    }
    return card;
  }

  /**
   * What the host root's well-known card path answers (with 404) when the project has several
   * agents: {@code {"error": "…", "agents": [{"name": …, "card": …}]}}, each agent's own card URL.
   */
  static ObjectNode index(List<Agent> agents, String baseUrl) {
    ObjectNode index = Json.NODES.objectNode();
    index.put(
        "error",
        "this server has "
            + agents.size()
            + " agents, each with its own card: GET /agent/<name>"
            + A2aServer.CARD_PATH);
    ArrayNode list = index.putArray("agents");
    for (Agent agent : agents) {
      list.addObject()
          .put("name", agent.name())
          .put("card", baseUrl + "/agent/" + agent.name() + A2aServer.CARD_PATH);
    }
    return index;
  }

  /** The agent's description, else a plain sentence (the instruction is never published). */
  static String description(Agent agent, Model model) {
    return agent
        .description()
        .filter(d -> !d.isBlank())
        .orElse("The " + agent.name() + " agent of " + model.service().name() + ".");
  }

  static List<String> tools(Agent agent, Model model) {
    return AgentTools.offered(agent.toolAccess(), model.tools());
  }
}
