package dev.svc.call;

import dev.svc.json.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A request the server sends the client of a call while the call runs: MCP's server-to-client
 * requests ({@code elicitation/create}, {@code sampling/createMessage}, {@code roots/list}). Each
 * needs a capability the client declares; a client that did not declare it is never asked.
 */
public sealed interface ClientRequest {

  /** The JSON-RPC method. */
  String method();

  /** The client capability it needs: {@code elicitation}, {@code sampling} or {@code roots}. */
  String capability();

  /** The JSON-RPC params. */
  ObjectNode params();

  /**
   * {@code elicitation/create} in form mode: a message and the flat JSON Schema of the form.
   *
   * @param requestedSchema an object schema ({@code {"type":"object","properties":{…}}})
   */
  record Elicitation(String message, ObjectNode requestedSchema) implements ClientRequest {
    @Override
    public String method() {
      return "elicitation/create";
    }

    @Override
    public String capability() {
      return "elicitation";
    }

    @Override
    public ObjectNode params() {
      ObjectNode params = Json.NODES.objectNode();
      params.put("message", message);
      params.set("requestedSchema", requestedSchema.deepCopy());
      return params;
    }
  }

  /** {@code sampling/createMessage} with the params as the script wrote them. */
  record Sampling(ObjectNode samplingParams) implements ClientRequest {
    @Override
    public String method() {
      return "sampling/createMessage";
    }

    @Override
    public String capability() {
      return "sampling";
    }

    @Override
    public ObjectNode params() {
      return samplingParams.deepCopy();
    }
  }

  /** {@code roots/list}. */
  record Roots() implements ClientRequest {
    @Override
    public String method() {
      return "roots/list";
    }

    @Override
    public String capability() {
      return "roots";
    }

    @Override
    public ObjectNode params() {
      return Json.NODES.objectNode();
    }
  }

  /**
   * The request a script asked for: {@code kind} {@code elicit}, {@code sample} or {@code roots},
   * with its argument.
   *
   * @throws IllegalArgumentException with a message for the script when the argument is not one
   */
  static ClientRequest of(String kind, JsonNode argument) {
    return switch (kind) {
      case "elicit" -> {
        JsonNode message = argument.get("message");
        JsonNode schema =
            argument.has("requestedSchema")
                ? argument.get("requestedSchema")
                : argument.get("schema");
        if (message == null || !message.isString()) {
          throw new IllegalArgumentException("elicit: `message` must be a string");
        }
        if (!(schema instanceof ObjectNode object)
            || !object.path("type").asString("").equals("object")) {
          throw new IllegalArgumentException(
              "elicit: `schema` must be an object schema, {type: \"object\", properties: {…}}");
        }
        yield new Elicitation(message.asString(), object);
      }
      case "sample" -> {
        if (!(argument instanceof ObjectNode object) || !object.path("messages").isArray()) {
          throw new IllegalArgumentException(
              "sample: pass the sampling/createMessage params, {messages: [...], maxTokens}");
        }
        yield new Sampling(object);
      }
      case "roots" -> new Roots();
      default -> throw new IllegalArgumentException("unknown client request " + kind);
    };
  }
}
