package dev.svc.protocol.mcp;

import dev.svc.call.ClientRequest;
import tools.jackson.databind.JsonNode;

/**
 * Checks a client's result against what MCP says the request returns, so that a malformed answer is
 * a precise error where it arrives and never reaches a tool as if it were the user's answer.
 */
final class ClientAnswers {
  private ClientAnswers() {}

  sealed interface Checked {
    record Valid() implements Checked {}

    record Malformed(String why) implements Checked {}
  }

  static Checked check(ClientRequest request, JsonNode result) {
    return check(request.method(), result);
  }

  /** The same check by the request's method. */
  static Checked check(String method, JsonNode result) {
    if (!result.isObject()) {
      return new Checked.Malformed("the result is not an object");
    }
    return switch (method) {
      case "elicitation/create" -> {
        String action = result.path("action").asString("");
        if (!action.equals("accept") && !action.equals("decline") && !action.equals("cancel")) {
          yield new Checked.Malformed("`action` must be accept, decline or cancel");
        }
        JsonNode content = result.get("content");
        yield content != null && !content.isObject() && !content.isNull()
            ? new Checked.Malformed("`content` must be an object")
            : new Checked.Valid();
      }
      case "sampling/createMessage" ->
          result.has("content") && result.has("role")
              ? new Checked.Valid()
              : new Checked.Malformed("a sampling result has `role` and `content`");
      case "roots/list" ->
          result.path("roots").isArray()
              ? new Checked.Valid()
              : new Checked.Malformed("`roots` must be an array");
      default -> new Checked.Malformed("svc sent no " + method + " request");
    };
  }
}
