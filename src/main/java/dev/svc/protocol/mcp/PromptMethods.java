package dev.svc.protocol.mcp;

import static dev.svc.protocol.jsonrpc.MethodHandler.result;

import dev.svc.call.ClientText;
import dev.svc.json.Json;
import dev.svc.model.Argument;
import dev.svc.model.Prompt;
import dev.svc.protocol.jsonrpc.JsonRpcException;
import dev.svc.protocol.jsonrpc.MethodHandler;
import dev.svc.runtime.PromptRenderer;
import dev.svc.runtime.ResourceContents;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code prompts/list} and {@code prompts/get}. MCP prompt messages allow only {@code user} and
 * {@code assistant}: a {@code system} message, whatever its content, is sent with role {@code user}
 * and marked in {@code _meta} as {@code {"svc/role": "system"}} (docs/decisions.md "MCP
 * transport"). A message's resource is read as {@code resources/read} reads it, and fails the same
 * way (-32002 for an unknown URI).
 *
 * @see <a
 *     href="https://modelcontextprotocol.io/specification/2025-06-18/server/prompts#data-types">MCP
 *     prompt message content</a>
 */
final class PromptMethods {
  private PromptMethods() {}

  static void register(Map<String, MethodHandler<McpCall>> handlers) {
    handlers.put("prompts/list", result((call, params) -> list(call, params)));
    handlers.put("prompts/get", result(PromptMethods::get));
  }

  private static JsonNode list(McpCall call, ObjectNode params) {
    ListResult.firstPageOnly(params);
    List<ListResult.Prompt> prompts = new ArrayList<>();
    for (Prompt prompt : call.runtime().model().prompts()) {
      List<ListResult.PromptArgument> arguments = new ArrayList<>();
      for (Argument argument : prompt.arguments()) {
        arguments.add(
            new ListResult.PromptArgument(
                new Descriptor(argument.name(), argument.title(), argument.description()),
                argument.required()));
      }
      prompts.add(
          new ListResult.Prompt(
              new Descriptor(prompt.name(), prompt.title(), prompt.description()), arguments));
    }
    return new ListResult<>(ListResult.Listing.PROMPTS, prompts).toJson();
  }

  private static JsonNode get(McpCall call, ObjectNode params) {
    JsonNode name = params.get("name");
    if (name == null || !name.isString()) {
      throw JsonRpcException.invalidParams("`name` must be the name of a prompt");
    }
    Prompt prompt =
        call.runtime()
            .model()
            .prompt(name.asString())
            .orElseThrow(() ->
                JsonRpcException.invalidParams(
                    UnknownNames.message(
                        "Unknown prompt: " + ClientText.shown(name.asString()),
                        name.asString(),
                        call.runtime().model().prompts().stream().map(Prompt::name).toList())));
    Map<String, String> arguments = arguments(params.get("arguments"));
    List<String> missing = PromptRenderer.missingRequired(prompt, arguments);
    if (!missing.isEmpty()) {
      throw JsonRpcException.invalidParams(PromptRenderer.missingMessage(prompt, missing));
    }
    List<PromptRenderer.Rendered> rendered;
    try {
      rendered = call.runtime().prompts().render(prompt, arguments);
    } catch (PromptRenderer.UnknownResourceException e) {
      // the error resources/read gives for the URI, under either revision
      throw call.stateless()
          ? ResourceMethods.notFoundStateless(
              e.uri(), call.runtime().model().resources().stream().map(r -> r.uri()).toList())
          : ResourceMethods.notFound(e.uri());
    } catch (ResourceContents.InvalidPathException e) {
      throw JsonRpcException.invalidParams(e.getMessage());
    } catch (PromptRenderer.TooLargeException e) {
      throw JsonRpcException.invalidParams("prompt `" + prompt.name() + "`: " + e.getMessage());
    } catch (ResourceContents.TooLargeException e) {
      throw JsonRpcException.internal(
          "Internal error: " + e.getMessage(),
          Json.NODES.objectNode().put("prompt", prompt.name()));
    }
    List<GetPromptResult.Message> messages = new ArrayList<>();
    for (PromptRenderer.Rendered message : rendered) {
      messages.add(
          new GetPromptResult.Message(
              message.role() == Prompt.Role.ASSISTANT
                  ? GetPromptResult.Role.ASSISTANT
                  : GetPromptResult.Role.USER,
              content(message.content()),
              message.role() == Prompt.Role.SYSTEM
                  ? Optional.of(Json.NODES.objectNode().put("svc/role", "system"))
                  : Optional.empty()));
    }
    return new GetPromptResult(prompt.description(), messages).toJson();
  }

  /** MCP content of a prompt message: text, image, or an embedded resource. */
  private static Content content(PromptRenderer.Content content) {
    return switch (content) {
      case PromptRenderer.Text text -> Content.text(text.text());
      case PromptRenderer.Image image ->
          Content.image(Base64.getEncoder().encodeToString(image.bytes()), image.mimeType());
      case PromptRenderer.Resource resource -> Content.resource(Contents.of(resource.content()));
    };
  }

  private static Map<String, String> arguments(JsonNode node) {
    Map<String, String> arguments = new LinkedHashMap<>();
    if (node == null || node.isNull()) {
      return arguments;
    }
    if (!node.isObject()) {
      throw JsonRpcException.invalidParams("`arguments` must be an object of strings");
    }
    for (Map.Entry<String, JsonNode> entry : node.properties()) {
      JsonNode value = entry.getValue();
      if (value.isNull()) {
        continue;
      }
      if (value.isContainer()) {
        throw JsonRpcException.invalidParams(
            "argument `" + ClientText.shown(entry.getKey()) + "` must be a string");
      }
      arguments.put(entry.getKey(), value.asString());
    }
    return arguments;
  }
}
