package dev.svc.runtime;

import dev.svc.call.VerifiedToken;
import dev.svc.json.Json;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a script learns of the call's verified access token: {@code {subject, claims, scopes}}
 * (docs/scripts.md). Never the token itself.
 */
final class ScriptAuth {
  private ScriptAuth() {}

  static ObjectNode of(VerifiedToken token) {
    ObjectNode auth = Json.NODES.objectNode();
    auth.put("subject", token.subject());
    auth.set("claims", Json.MAPPER.valueToTree(token.claims()));
    ArrayNode scopes = auth.putArray("scopes");
    token.scopes().stream().sorted().forEach(scopes::add);
    return auth;
  }
}
