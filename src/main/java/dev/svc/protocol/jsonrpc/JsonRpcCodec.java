package dev.svc.protocol.jsonrpc;

import dev.svc.json.FiniteNumbers;
import dev.svc.json.Jackson;
import dev.svc.json.LoneSurrogates;
import java.util.Optional;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads JSON-RPC 2.0 messages with the exact error codes of the specification, and writes
 * responses. Batches are refused (MCP since 2025-06-18 and A2A have none).
 */
public final class JsonRpcCodec {
  public static final JsonMapper JSON = Jackson.MAPPER;

  /**
   * Reads request bodies: numbers beyond a double's range are a parse error, not infinity, and so
   * is a property named twice in one object (I-JSON, RFC 7493 §2.3): a gateway in front of svc that
   * keeps the first of two {@code "name"}s and svc, which would keep the last, must never disagree
   * on which tool a call is for.
   */
  private static final ObjectReader BODIES =
      JSON.reader().with(FiniteNumbers.INSTANCE).with(StreamReadFeature.STRICT_DUPLICATE_DETECTION);

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private JsonRpcCodec() {}

  /** What a body parsed to: a message, or an error to answer with (and the id, if one was read). */
  public sealed interface Parsed {}

  public record Message(JsonRpcMessage message) implements Parsed {}

  public record Invalid(JsonRpcError error, Optional<JsonNode> id) implements Parsed {}

  /** The id of the request in {@code body}; empty for a notification, a response or garbage. */
  public static Optional<JsonNode> idOf(byte[] body) {
    return switch (parse(body)) {
      case Invalid invalid -> invalid.id();
      case Message parsed ->
          parsed.message() instanceof JsonRpcMessage.Request request
              ? Optional.of(request.id())
              : Optional.empty();
    };
  }

  public static Parsed parse(byte[] body) {
    JsonNode tree;
    try {
      tree = LoneSurrogates.mended(BODIES.readTree(body), body);
    } catch (JacksonException e) {
      return invalid(ErrorCodes.PARSE_ERROR, parseError(e), null);
    } catch (FiniteNumbers.OutOfRange e) {
      return invalid(ErrorCodes.PARSE_ERROR, "Parse error: " + e.getMessage(), null);
    }
    if (tree == null || tree.isMissingNode()) {
      return invalid(ErrorCodes.PARSE_ERROR, "Parse error: the body is empty", null);
    }
    if (tree.isArray()) {
      return invalid(
          ErrorCodes.INVALID_REQUEST, "Invalid Request: batches are not supported", null);
    }
    if (!tree.isObject()) {
      return invalid(ErrorCodes.INVALID_REQUEST, "Invalid Request: expected a JSON object", null);
    }
    JsonNode id = tree.get("id");
    JsonNode validId = id != null && (id.isString() || id.isIntegralNumber()) ? id : null;
    if (!"2.0".equals(tree.path("jsonrpc").asString(null))) {
      return invalid(
          ErrorCodes.INVALID_REQUEST, "Invalid Request: `jsonrpc` must be \"2.0\"", validId);
    }
    JsonNode method = tree.get("method");
    if (method == null) {
      if (id != null && (tree.has("result") || tree.has("error"))) {
        return new Message(
            new JsonRpcMessage.Response(
                id, Optional.ofNullable(tree.get("result")), errorOf(tree.get("error"))));
      }
      return invalid(ErrorCodes.INVALID_REQUEST, "Invalid Request: `method` is missing", validId);
    }
    if (!method.isString()) {
      return invalid(
          ErrorCodes.INVALID_REQUEST, "Invalid Request: `method` must be a string", validId);
    }
    JsonNode params = tree.get("params");
    if (params != null && !params.isObject() && !params.isNull()) {
      return invalid(
          ErrorCodes.INVALID_REQUEST, "Invalid Request: `params` must be an object", validId);
    }
    ObjectNode paramsObject = params instanceof ObjectNode o ? o : NODES.objectNode();
    if (id == null) {
      return new Message(new JsonRpcMessage.Notification(method.asString(), paramsObject));
    }
    if (validId == null) {
      return invalid(
          ErrorCodes.INVALID_REQUEST, "Invalid Request: `id` must be a string or an integer", null);
    }
    return new Message(new JsonRpcMessage.Request(id, method.asString(), paramsObject));
  }

  /**
   * "Parse error at line 1, column 17: …": where the body stopped being JSON and why, in words a
   * client author can act on, without Jackson's internals (its redacted source descriptions, token
   * names such as {@code VALUE_STRING}).
   */
  static String parseError(JacksonException e) {
    String reason = Optional.ofNullable(e.getOriginalMessage()).orElse("not valid JSON");
    int newline = reason.indexOf('\n');
    reason = newline < 0 ? reason : reason.substring(0, newline);
    reason =
        SOURCE_LOCATION
            .matcher(reason)
            .replaceAll("line $1, column $2")
            .replaceAll(" ?\\(start marker at \\[Source: [^\\]]*\\]\\)", "")
            .replace("in VALUE_STRING", "inside a string")
            .replace("in FIELD_NAME", "inside a property name")
            .strip();
    if (TRAILING_TOKEN.matcher(reason).lookingAt()) {
      reason = "another JSON value follows the request; send one JSON-RPC object per request";
    }
    reason = CONSTRAINT_SOURCE.matcher(reason).replaceAll("");
    reason = ENABLE_TO_ALLOW.matcher(reason).replaceAll("");
    reason = HEXADECIMAL.matcher(reason).replaceAll("JSON has no hexadecimal numbers");
    reason = COMMENTS.matcher(reason).replaceAll(" JSON has no comments");
    TokenStreamLocation at = e.getLocation();
    String where =
        at != null && at.getLineNr() > 0
            ? " at line " + at.getLineNr() + ", column " + at.getColumnNr()
            : "";
    return "Parse error" + where + ": " + reason;
  }

  /**
   * Jackson's "Trailing token (`JsonToken.START_OBJECT`) found after value (bound as
   * `tools.jackson.databind.JsonNode`): not allowed as per
   * `DeserializationFeature.FAIL_ON_TRAILING_TOKENS`": a second value after the request, in
   * Jackson's class and setting names.
   */
  private static final Pattern TRAILING_TOKEN = Pattern.compile("Trailing token \\(");

  /**
   * The setting a read limit comes from, in "Number value length (1001) exceeds the maximum allowed
   * (1000, from `StreamReadConstraints.getMaxNumberLength()`)": the limit says enough.
   */
  private static final Pattern CONSTRAINT_SOURCE = Pattern.compile(", from `[^`]*`");

  /**
   * Jackson's advice to the reader's author, not to a client: "Non-standard token 'NaN': enable
   * `JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS` to allow" (also leading plus signs).
   */
  private static final Pattern ENABLE_TO_ALLOW = Pattern.compile(": enable `[^`]*` to allow");

  /** "hexadecimal number literals require enabling `JsonReadFeature.ALLOW_HEXADECIMAL_NUMBERS`". */
  private static final Pattern HEXADECIMAL =
      Pattern.compile("hexadecimal number literals require enabling `[^`]*`");

  /** "maybe a (non-standard) comment? (not recognized as one since Feature 'ALLOW_COMMENTS' …)". */
  private static final Pattern COMMENTS =
      Pattern.compile(" \\(not recognized as one since Feature '[^']*' not enabled for parser\\)");

  /** Jackson's "[Source: REDACTED (…); line: 1, column: 7]" inside a message. */
  private static final Pattern SOURCE_LOCATION =
      Pattern.compile("\\[Source: [^\\]]*?line: (\\d+), column: (\\d+)\\]");

  private static Optional<JsonRpcError> errorOf(JsonNode error) {
    if (error == null || !error.isObject()) {
      return Optional.empty();
    }
    return Optional.of(
        new JsonRpcError(
            error.path("code").asInt(0),
            error.path("message").asString(""),
            Optional.ofNullable(error.get("data"))));
  }

  private static Invalid invalid(int code, String message, JsonNode id) {
    return new Invalid(JsonRpcError.of(code, message), Optional.ofNullable(id));
  }

  public static ObjectNode result(JsonNode id, JsonNode result) {
    ObjectNode response = NODES.objectNode();
    response.put("jsonrpc", "2.0");
    response.set("id", id);
    response.set("result", result);
    return response;
  }

  public static ObjectNode error(Optional<JsonNode> id, JsonRpcError error) {
    ObjectNode response = NODES.objectNode();
    response.put("jsonrpc", "2.0");
    response.set("id", id.orElse(NODES.nullNode()));
    ObjectNode body = response.putObject("error");
    body.put("code", error.code());
    body.put("message", error.message());
    error.data().ifPresent(d -> body.set("data", d));
    return response;
  }

  public static ObjectNode notification(String method, JsonNode params) {
    ObjectNode message = NODES.objectNode();
    message.put("jsonrpc", "2.0");
    message.put("method", method);
    message.set("params", params);
    return message;
  }

  public static byte[] bytes(JsonNode node) {
    return JSON.writeValueAsBytes(node);
  }
}
