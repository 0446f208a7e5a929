package dev.svc.protocol.mcp;

import static dev.svc.protocol.jsonrpc.MethodHandler.result;

import dev.svc.model.Argument;
import dev.svc.model.Model;
import dev.svc.model.Prompt;
import dev.svc.model.Resource;
import dev.svc.model.ResourceTemplate;
import dev.svc.protocol.jsonrpc.ErrorCodes;
import dev.svc.protocol.jsonrpc.JsonRpcException;
import dev.svc.protocol.jsonrpc.MethodHandler;
import dev.svc.runtime.Json;
import dev.svc.runtime.ProjectRuntime;
import dev.svc.runtime.ResourceContents;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** Resources, resource templates, subscriptions and argument completion. */
final class ResourceMethods {
  /** Most completion values one answer holds (MCP's limit). */
  static final int MAX_COMPLETIONS = 100;

  private final Supplier<ProjectRuntime> runtime;

  ResourceMethods(Supplier<ProjectRuntime> runtime) {
    this.runtime = runtime;
  }

  void register(Map<String, MethodHandler<McpCall>> handlers) {
    handlers.put("resources/list", result((call, params) -> list()));
    handlers.put("resources/templates/list", result((call, params) -> templates()));
    handlers.put("resources/read", result((call, params) -> read(params)));
    handlers.put("resources/subscribe", result((call, params) -> subscribe(call, params, true)));
    handlers.put("resources/unsubscribe", result((call, params) -> subscribe(call, params, false)));
    handlers.put("completion/complete", result((call, params) -> complete(params)));
  }

  private JsonNode list() {
    ObjectNode result = Json.NODES.objectNode();
    ArrayNode resources = result.putArray("resources");
    for (Resource resource : runtime.get().model().resources()) {
      ObjectNode entry = resources.addObject();
      entry.put("uri", resource.uri());
      entry.put("name", resource.name());
      resource.title().ifPresent(t -> entry.put("title", t));
      resource.description().ifPresent(d -> entry.put("description", d));
      ResourceContents.listedMimeType(resource).ifPresent(m -> entry.put("mimeType", m));
    }
    return result;
  }

  private JsonNode templates() {
    ObjectNode result = Json.NODES.objectNode();
    ArrayNode templates = result.putArray("resourceTemplates");
    for (ResourceTemplate template : runtime.get().model().resourceTemplates()) {
      ObjectNode entry = templates.addObject();
      entry.put("uriTemplate", template.uriTemplate());
      entry.put("name", template.name());
      template.title().ifPresent(t -> entry.put("title", t));
      template.description().ifPresent(d -> entry.put("description", d));
      template.mimeType().ifPresent(m -> entry.put("mimeType", m));
    }
    return result;
  }

  private JsonNode read(ObjectNode params) {
    String uri = uri(params);
    Optional<ResourceContents.Content> content;
    try {
      content = runtime.get().resources().read(uri);
    } catch (ResourceContents.InvalidPathException e) {
      throw JsonRpcException.invalidParams(e.getMessage());
    }
    if (content.isEmpty()) {
      throw notFound(uri);
    }
    ObjectNode result = Json.NODES.objectNode();
    contents(content.get(), result.putArray("contents").addObject());
    return result;
  }

  /** The error of a read whose URI matches no resource or template. */
  static JsonRpcException notFound(String uri) {
    return JsonRpcException.withCode(
        ErrorCodes.RESOURCE_NOT_FOUND,
        "Resource not found",
        Json.NODES.objectNode().put("uri", uri));
  }

  /** Fills {@code entry} as MCP's text or blob resource contents. */
  static ObjectNode contents(ResourceContents.Content content, ObjectNode entry) {
    entry.put("uri", content.uri());
    entry.put("mimeType", content.mimeType());
    switch (content) {
      case ResourceContents.Text text -> entry.put("text", text.text());
      case ResourceContents.Blob blob ->
          entry.put("blob", Base64.getEncoder().encodeToString(blob.bytes()));
    }
    return entry;
  }

  private static JsonNode subscribe(McpCall call, ObjectNode params, boolean subscribe) {
    String uri = uri(params);
    if (subscribe) {
      call.session().subscriptions().add(uri);
    } else {
      call.session().subscriptions().remove(uri);
    }
    return Json.NODES.objectNode();
  }

  private static String uri(ObjectNode params) {
    JsonNode uri = params.get("uri");
    if (uri == null || !uri.isString() || uri.asString().isEmpty()) {
      throw JsonRpcException.invalidParams("`uri` must be a resource URI");
    }
    return uri.asString();
  }

  private JsonNode complete(ObjectNode params) {
    JsonNode ref = params.path("ref");
    JsonNode argument = params.path("argument");
    if (!argument.path("name").isString()) {
      throw JsonRpcException.invalidParams("`argument.name` must be the name of an argument");
    }
    String name = argument.path("name").asString();
    String prefix = argument.path("value").asString("").toLowerCase(Locale.ROOT);
    Model model = runtime.get().model();
    List<Argument> arguments =
        switch (ref.path("type").asString("")) {
          case "ref/prompt" ->
              model
                  .prompt(ref.path("name").asString(""))
                  .map(Prompt::arguments)
                  .orElseThrow(() ->
                      JsonRpcException.invalidParams(
                          "Unknown prompt: " + ref.path("name").asString("")));
          case "ref/resource" ->
              model.resourceTemplates().stream()
                  .filter(t -> t.uriTemplate().equals(ref.path("uri").asString("")))
                  .findFirst()
                  .map(ResourceTemplate::arguments)
                  .orElseThrow(() ->
                      JsonRpcException.invalidParams(
                          "Unknown resource template: " + ref.path("uri").asString("")));
          default ->
              throw JsonRpcException.invalidParams("`ref.type` must be ref/prompt or ref/resource");
        };
    List<String> matches =
        arguments.stream()
            .filter(a -> a.name().equals(name))
            .findFirst()
            .map(Argument::completion)
            .orElse(List.of())
            .stream()
            .filter(v -> v.toLowerCase(Locale.ROOT).startsWith(prefix))
            .toList();
    ObjectNode result = Json.NODES.objectNode();
    ObjectNode completion = result.putObject("completion");
    ArrayNode values = completion.putArray("values");
    matches.stream().limit(MAX_COMPLETIONS).forEach(values::add);
    completion.put("total", matches.size());
    completion.put("hasMore", matches.size() > MAX_COMPLETIONS);
    return result;
  }
}
