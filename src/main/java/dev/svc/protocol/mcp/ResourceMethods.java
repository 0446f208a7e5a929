package dev.svc.protocol.mcp;

import static dev.svc.protocol.jsonrpc.MethodHandler.result;

import dev.svc.call.ClientText;
import dev.svc.json.Json;
import dev.svc.model.Argument;
import dev.svc.model.Model;
import dev.svc.model.Prompt;
import dev.svc.model.Resource;
import dev.svc.model.ResourceTemplate;
import dev.svc.protocol.jsonrpc.ErrorCodes;
import dev.svc.protocol.jsonrpc.JsonRpcException;
import dev.svc.protocol.jsonrpc.MethodHandler;
import dev.svc.runtime.PromptRenderer;
import dev.svc.runtime.ResourceContents;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Resources, resource templates, subscriptions and argument completion. */
final class ResourceMethods {
  /** Most completion values one answer holds (MCP's limit). */
  static final int MAX_COMPLETIONS = 100;

  /** The most resources one session may subscribe to. */
  static final int MAX_SUBSCRIPTIONS = 100;

  /** The longest URI one may subscribe to (a template can match any length). */
  static final int MAX_SUBSCRIBED_URI = 2048;

  private ResourceMethods() {}

  static void register(Map<String, MethodHandler<McpCall>> handlers) {
    handlers.put("resources/list", result((call, params) -> list(call, params)));
    handlers.put("resources/templates/list", result((call, params) -> templates(call, params)));
    handlers.put("resources/read", result(ResourceMethods::read));
    handlers.put("resources/subscribe", result((call, params) -> subscribe(call, params, true)));
    handlers.put("resources/unsubscribe", result((call, params) -> subscribe(call, params, false)));
    handlers.put("completion/complete", result(ResourceMethods::complete));
  }

  private static JsonNode list(McpCall call, ObjectNode params) {
    ListResult.firstPageOnly(params);
    List<ListResult.Resource> resources = new ArrayList<>();
    for (Resource resource : call.runtime().model().resources()) {
      resources.add(
          new ListResult.Resource(
              ListResult.Resource.Locator.URI,
              resource.uri(),
              new Descriptor(resource.name(), resource.title(), resource.description()),
              ResourceContents.listedMimeType(resource)));
    }
    return new ListResult<>(ListResult.Listing.RESOURCES, resources).toJson();
  }

  private static JsonNode templates(McpCall call, ObjectNode params) {
    ListResult.firstPageOnly(params);
    List<ListResult.Resource> templates = new ArrayList<>();
    for (ResourceTemplate template : call.runtime().model().resourceTemplates()) {
      templates.add(
          new ListResult.Resource(
              ListResult.Resource.Locator.URI_TEMPLATE,
              template.uriTemplate(),
              new Descriptor(template.name(), template.title(), template.description()),
              template.mimeType()));
    }
    return new ListResult<>(ListResult.Listing.RESOURCE_TEMPLATES, templates).toJson();
  }

  private static JsonNode read(McpCall call, ObjectNode params) {
    String uri = uri(params);
    Optional<ResourceContents.Content> content;
    try {
      content = call.runtime().resources().read(uri);
    } catch (ResourceContents.InvalidPathException e) {
      throw JsonRpcException.invalidParams(e.getMessage());
    } catch (PromptRenderer.TooLargeException e) {
      throw JsonRpcException.invalidParams("resource template: " + e.getMessage());
    } catch (ResourceContents.TooLargeException e) {
      throw tooLarge(uri, e);
    }
    if (content.isEmpty()) {
      List<String> known = call.runtime().model().resources().stream().map(Resource::uri).toList();
      throw call.stateless()
          ? notFoundStateless(uri, known)
          : notFound(uri, UnknownNames.message("Resource not found", uri, known));
    }
    return new ReadResourceResult(List.of(Contents.of(content.get()))).toJson();
  }

  /** A resource file past the ceiling of one result: {@code -32603} saying so, with its URI. */
  static JsonRpcException tooLarge(String uri, ResourceContents.TooLargeException e) {
    return JsonRpcException.internal(
        "Internal error: " + e.getMessage(), Json.NODES.objectNode().put("uri", uri));
  }

  /** The error of a read whose URI matches no resource or template. */
  static JsonRpcException notFound(String uri) {
    return notFound(uri, "Resource not found");
  }

  /** The same with another message, e.g. one suggesting the closest URI. */
  private static JsonRpcException notFound(String uri, String message) {
    return JsonRpcException.withCode(
        ErrorCodes.RESOURCE_NOT_FOUND,
        message,
        Json.NODES.objectNode().put("uri", ClientText.shown(uri)));
  }

  /**
   * The same error under 2026-07-28, which moved it to {@code -32602} (still with {@code
   * data.uri}).
   */
  static JsonRpcException notFoundStateless(String uri, List<String> known) {
    return JsonRpcException.withCode(
        ErrorCodes.INVALID_PARAMS,
        UnknownNames.message("Resource not found: " + ClientText.shown(uri), uri, known),
        Json.NODES.objectNode().put("uri", ClientText.shown(uri)));
  }

  private static JsonNode subscribe(McpCall call, ObjectNode params, boolean subscribe) {
    String uri = uri(params);
    if (subscribe) {
      if (uri.length() > MAX_SUBSCRIBED_URI || !call.runtime().resources().serves(uri)) {
        throw notFound(uri.length() > 200 ? uri.substring(0, 200) + "…" : uri);
      }
      if (!call.session().subscribe(uri, MAX_SUBSCRIPTIONS)) {
        throw JsonRpcException.invalidParams(
            "a session may subscribe to at most "
                + MAX_SUBSCRIPTIONS
                + " resources: unsubscribe from one first");
      }
    } else {
      call.session().unsubscribe(uri);
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

  private static JsonNode complete(McpCall call, ObjectNode params) {
    JsonNode ref = params.path("ref");
    JsonNode argument = params.path("argument");
    if (!argument.path("name").isString()) {
      throw JsonRpcException.invalidParams("`argument.name` must be the name of an argument");
    }
    String name = argument.path("name").asString();
    JsonNode value = argument.path("value");
    if (!value.isMissingNode() && !value.isNull() && !value.isString()) {
      throw JsonRpcException.invalidParams("`argument.value` must be a string");
    }
    String prefix = Completions.folded(value.asString(""));
    Model model = call.runtime().model();
    List<Argument> arguments =
        switch (ref.path("type").asString("")) {
          case "ref/prompt" ->
              model
                  .prompt(ref.path("name").asString(""))
                  .map(Prompt::arguments)
                  .orElseThrow(() ->
                      JsonRpcException.invalidParams(
                          "Unknown prompt: " + ClientText.shown(ref.path("name").asString(""))));
          case "ref/resource" ->
              model.resourceTemplates().stream()
                  .filter(t -> t.uriTemplate().equals(ref.path("uri").asString("")))
                  .findFirst()
                  .map(ResourceTemplate::arguments)
                  .orElseThrow(() ->
                      JsonRpcException.invalidParams(
                          "Unknown resource template: "
                              + ClientText.shown(ref.path("uri").asString(""))));
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
            .filter(v -> Completions.folded(v).startsWith(prefix))
            .toList();
    return new CompleteResult(
            matches.stream().limit(MAX_COMPLETIONS).toList(),
            Optional.of((long) matches.size()),
            Optional.of(matches.size() > MAX_COMPLETIONS))
        .toJson();
  }
}
