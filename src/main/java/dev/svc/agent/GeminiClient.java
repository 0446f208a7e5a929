package dev.svc.agent;

import dev.svc.json.Json;
import dev.svc.json.LoneSurrogates;
import dev.svc.model.Provider;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Gemini {@code generateContent} / {@code streamGenerateContent?alt=sse} with function
 * declarations, for the Gemini API (key in {@code x-goog-api-key}) and for Vertex AI (the same JSON
 * under {@code projects/{p}/locations/{l}/publishers/google/models/{m}} with an OAuth bearer token,
 * or under {@code publishers/google/models/{m}} with an API key).
 */
final class GeminiClient implements ModelClient {
  private final ModelSettings settings;
  private final ProviderHttp http;
  private final Optional<Supplier<String>> accessToken;

  /**
   * @param accessToken Vertex OAuth: gives a fresh bearer token per call; empty when a key is used
   */
  GeminiClient(ModelSettings settings, Optional<Supplier<String>> accessToken) {
    this.settings = settings;
    this.accessToken = accessToken;
    this.http = new ProviderHttp(settings.provider().wireName(), settings.timeout());
  }

  @Override
  public Turn.Model generate(ModelRequest request, Consumer<String> text) {
    ObjectNode body = body(request);
    Map<String, String> headers = new LinkedHashMap<>();
    if (accessToken.isPresent()) {
      headers.put("Authorization", "Bearer " + accessToken.get().get());
    } else {
      settings.apiKey().ifPresent(key -> headers.put("x-goog-api-key", key));
    }
    if (!request.streaming()) {
      JsonNode answer = http.post(modelUrl() + ":generateContent", headers, body);
      Assembly assembly = new Assembly(headers);
      assembly.add(answer, piece -> {});
      return assembly.finish();
    }
    Assembly assembly = new Assembly(headers);
    http.stream(
        modelUrl() + ":streamGenerateContent?alt=sse",
        headers,
        body,
        data -> assembly.add(parse(data), text));
    return assembly.finish();
  }

  private String modelUrl() {
    String model =
        settings.model().startsWith("models/")
            ? settings.model().substring("models/".length())
            : settings.model();
    String encoded = URLEncoder.encode(model, StandardCharsets.UTF_8);
    if (settings.provider() == Provider.GEMINI) {
      return settings.baseUrl() + "/models/" + encoded;
    }
    if (accessToken.isEmpty()) {
      return settings.baseUrl() + "/publishers/google/models/" + encoded;
    }
    String project =
        settings
            .project()
            .orElseThrow(() ->
                new ModelException(
                    "vertex needs a project: set the model option `project` or"
                        + " GOOGLE_CLOUD_PROJECT (or give an `api_key` for express mode)"));
    return settings.baseUrl()
        + "/projects/"
        + URLEncoder.encode(project, StandardCharsets.UTF_8)
        + "/locations/"
        + URLEncoder.encode(settings.location().orElse("global"), StandardCharsets.UTF_8)
        + "/publishers/google/models/"
        + encoded;
  }

  private ObjectNode body(ModelRequest request) {
    ObjectNode body = Json.NODES.objectNode();
    ArrayNode contents = body.putArray("contents");
    ArrayNode pendingResponses = null;
    for (Turn turn : request.turns()) {
      if (!(turn instanceof Turn.ToolResult)) {
        pendingResponses = null;
      }
      switch (turn) {
        case Turn.User user ->
            contents
                .addObject()
                .put("role", "user")
                .putArray("parts")
                .addObject()
                .put("text", user.text());
        case Turn.Model model -> {
          if (model.raw().isPresent()) {
            contents.add(model.raw().get());
          } else if (!model.text().isEmpty() || !model.toolCalls().isEmpty()) {
            ArrayNode parts = contents.addObject().put("role", "model").putArray("parts");
            if (!model.text().isEmpty()) {
              parts.addObject().put("text", model.text());
            }
            for (ToolCall call : model.toolCalls()) {
              ObjectNode fc = parts.addObject().putObject("functionCall");
              fc.put("name", call.name());
              fc.set(
                  "args", call.arguments().isObject() ? call.arguments() : Json.NODES.objectNode());
            }
          }
        }
        case Turn.ToolResult result -> {
          if (pendingResponses == null) {
            pendingResponses = contents.addObject().put("role", "user").putArray("parts");
          }
          ObjectNode response = pendingResponses.addObject().putObject("functionResponse");
          if (!result.call().id().isEmpty()) {
            response.put("id", result.call().id());
          }
          response.put("name", result.call().name());
          if (result.failed()) {
            response.set("response", result.result());
          } else {
            response.putObject("response").set("output", result.result());
          }
        }
      }
    }
    body.putObject("systemInstruction").putArray("parts").addObject().put("text", request.system());
    if (!request.functions().isEmpty()) {
      ArrayNode declarations = body.putArray("tools").addObject().putArray("functionDeclarations");
      for (FunctionSpec function : request.functions()) {
        ObjectNode declaration = declarations.addObject();
        declaration.put("name", function.name());
        declaration.put("description", function.description());
        if (!function.parameters().path("properties").isEmpty()) {
          declaration.set("parameters", openApiSchema(function.parameters()));
        }
      }
    }
    if (!settings.parameters().isEmpty()) {
      ObjectNode config = body.putObject("generationConfig");
      settings
          .parameters()
          .forEach((key, value) ->
              config.set(key.equals("max_tokens") ? "maxOutputTokens" : key, value));
    }
    return body;
  }

  /**
   * The subset of JSON Schema Gemini's {@code parameters} take (an OpenAPI schema object): no
   * {@code additionalProperties}; a default is told in the description.
   */
  static ObjectNode openApiSchema(JsonNode schema) {
    ObjectNode out = Json.NODES.objectNode();
    for (String key : List.of("type", "format", "description", "enum", "required", "nullable")) {
      if (schema.has(key)) {
        out.set(key, schema.get(key));
      }
    }
    if (schema.has("default")) {
      String said = schema.path("description").asString("");
      out.put(
          "description",
          (said.isEmpty() ? "" : said + " ")
              + "(default: "
              + schema.get("default").toString()
              + ")");
    }
    if (out.has("format")
        && !out.path("format").asString("").matches("date-time|enum|int32|int64|float|double")) {
      out.remove("format");
    }
    if (schema.has("properties")) {
      ObjectNode properties = out.putObject("properties");
      for (Map.Entry<String, JsonNode> property : schema.get("properties").properties()) {
        properties.set(property.getKey(), openApiSchema(property.getValue()));
      }
    }
    if (schema.has("items")) {
      out.set("items", openApiSchema(schema.get("items")));
    }
    return out;
  }

  private JsonNode parse(String data) {
    try {
      return LoneSurrogates.mended(Json.MAPPER.readTree(data), data);
    } catch (JacksonException e) {
      throw new ModelException(
          settings.provider().wireName() + " streamed an event that is not JSON", e);
    }
  }

  /** Builds one model turn from one answer or from the chunks of a stream. */
  private final class Assembly {
    private final Map<String, String> headers;
    private final StringBuilder text = new StringBuilder();
    private final List<ToolCall> calls = new ArrayList<>();
    private final ArrayNode callParts = Json.NODES.arrayNode();
    private JsonNode textSignature;
    private String finishReason = "";
    private String blockReason = "";
    private Turn.Usage usage = Turn.Usage.UNKNOWN;

    /**
     * @param headers the headers the answer was asked with, kept out of its error messages
     */
    Assembly(Map<String, String> headers) {
      this.headers = headers;
    }

    void add(JsonNode answer, Consumer<String> chunks) {
      if (answer.has("error")) {
        String said = ProviderHttp.errorMessage(answer.path("error"), headers);
        throw new ModelException(
            settings.provider().wireName()
                + " failed: "
                + (said.isEmpty() ? "unknown error" : said));
      }
      blockReason = answer.path("promptFeedback").path("blockReason").asString(blockReason);
      if (answer.path("usageMetadata").isObject()) { // streams repeat it; the last is the total
        usage =
            Turn.Usage.of(answer.path("usageMetadata"), "promptTokenCount", "candidatesTokenCount");
      }
      JsonNode candidate = answer.path("candidates").path(0);
      finishReason = candidate.path("finishReason").asString(finishReason);
      for (JsonNode part : candidate.path("content").path("parts")) {
        if (part.has("functionCall")) {
          JsonNode call = part.get("functionCall");
          JsonNode args = call.path("args");
          calls.add(
              new ToolCall(
                  call.path("id").asString(""),
                  call.path("name").asString(""),
                  args.isObject() ? args : Json.NODES.objectNode()));
          callParts.add(part);
        } else if (part.has("text") && !part.path("thought").asBoolean(false)) {
          String piece = part.get("text").asString("");
          if (!piece.isEmpty()) {
            text.append(piece);
            chunks.accept(piece);
          }
          if (textSignature == null && part.has("thoughtSignature")) {
            textSignature = part.get("thoughtSignature");
          }
        }
      }
    }

    Turn.Model finish() {
      if (text.isEmpty() && calls.isEmpty()) {
        String name = settings.provider().wireName();
        if (!blockReason.isEmpty()) {
          throw new ModelException(name + " blocked the request (" + blockReason + ")");
        }
        throw new ModelException(
            name
                + " returned no answer"
                + (finishReason.isEmpty() ? "" : " (finish reason " + finishReason + ")"));
      }
      ObjectNode raw = Json.NODES.objectNode().put("role", "model");
      ArrayNode parts = raw.putArray("parts");
      if (!text.isEmpty()) {
        ObjectNode part = parts.addObject().put("text", text.toString());
        if (textSignature != null) {
          part.set("thoughtSignature", textSignature);
        }
      }
      parts.addAll(callParts);
      return new Turn.Model(text.toString(), calls, Optional.of(raw), usage);
    }
  }
}
