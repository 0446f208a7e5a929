package dev.svc.protocol.mcp;

import static dev.svc.protocol.mcp.McpWire.Kind.BOOLEAN;
import static dev.svc.protocol.mcp.McpWire.Kind.OBJECT;
import static dev.svc.protocol.mcp.McpWire.Kind.STRING;

import dev.svc.model.ToolAnnotations;
import dev.svc.protocol.jsonrpc.JsonRpcException;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * MCP's list results ({@code ListToolsResult}, {@code ListPromptsResult}, {@code
 * ListResourcesResult}, {@code ListResourceTemplatesResult}): one list under its key, and the
 * entries they list. svc lists everything at once, so it never sends a {@code nextCursor}.
 *
 * @see <a
 *     href="https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/pagination">MCP
 *     pagination</a>
 */
public record ListResult<T extends McpJson>(Listing<T> listing, List<T> items) implements McpJson {

  public ListResult {
    items = List.copyOf(items);
  }

  /** Which list: the key it is sent under, and how one entry is read. */
  public record Listing<T>(String key, BiFunction<JsonNode, String, T> entry) {
    public static final Listing<Tool> TOOLS = new Listing<>("tools", Tool::fromJson);
    public static final Listing<Prompt> PROMPTS = new Listing<>("prompts", Prompt::fromJson);
    public static final Listing<Resource> RESOURCES =
        new Listing<>("resources", Resource.Locator.URI::read);
    public static final Listing<Resource> RESOURCE_TEMPLATES =
        new Listing<>("resourceTemplates", Resource.Locator.URI_TEMPLATE::read);
  }

  /**
   * Refuses a request for a page after the first. svc lists everything at once and never sends a
   * {@code nextCursor}, so a {@code cursor} (of any type; {@code null} is none) is one svc did not
   * issue: forged, altered, or from another server. MCP's pagination asks for {@code -32602} then,
   * rather than the first page returned as if it were the page asked for.
   *
   * @throws JsonRpcException {@code -32602} when {@code params} holds a cursor
   */
  static void firstPageOnly(ObjectNode params) {
    JsonNode cursor = params.get("cursor");
    if (cursor != null && !cursor.isNull()) {
      throw JsonRpcException.invalidParams(
          "`cursor` is not one svc issued: svc lists everything in one page and sends no"
              + " `nextCursor`; list again without a cursor");
    }
  }

  public static <T extends McpJson> ListResult<T> fromJson(
      JsonNode json, String path, Listing<T> listing) {
    return new ListResult<>(
        listing, McpWire.Fields.of(json, path).list(listing.key(), listing.entry()));
  }

  @Override
  public ObjectNode toJson() {
    ObjectNode out = McpWire.NODES.objectNode();
    out.set(listing.key(), McpWire.array(items, McpJson::toJson));
    return out;
  }

  /**
   * MCP {@code Tool}: a tool as {@code tools/list} shows it.
   *
   * @param description svc always sends one (clients and the conformance suite expect it)
   * @param inputSchema a JSON Schema of {@code type: object}
   * @param annotations hints about the tool's behaviour (MCP 2025-03-26 on); absent when svc has
   *     none to give
   * @param outputSchema a JSON Schema of {@code type: object} that the tool's {@code
   *     structuredContent} conforms to (MCP 2025-06-18 on)
   */
  public record Tool(
      String name,
      Optional<String> description,
      ObjectNode inputSchema,
      Optional<Annotations> annotations,
      Optional<ObjectNode> outputSchema)
      implements McpJson {
    public Tool(String name, String description, ObjectNode inputSchema) {
      this(name, Optional.of(description), inputSchema, Optional.empty(), Optional.empty());
    }

    public static Tool fromJson(JsonNode json, String path) {
      McpWire.Fields tool = McpWire.Fields.of(json, path);
      return new Tool(
          tool.required("name", STRING),
          tool.optional("description", STRING),
          tool.required("inputSchema", OBJECT),
          tool.optionalNested("annotations", Annotations::fromJson),
          tool.optional("outputSchema", OBJECT));
    }

    @Override
    public ObjectNode toJson() {
      ObjectNode out = McpWire.NODES.objectNode().put("name", name);
      McpWire.put(out, "description", description);
      out.set("inputSchema", inputSchema);
      annotations.ifPresent(a -> out.set("annotations", a.toJson()));
      McpWire.set(out, "outputSchema", outputSchema);
      return out;
    }
  }

  /**
   * MCP {@code ToolAnnotations}: hints, each absent when unknown (the client then assumes MCP's
   * default: not read-only, destructive, not idempotent, open world).
   */
  public record Annotations(
      Optional<String> title,
      Optional<Boolean> readOnlyHint,
      Optional<Boolean> destructiveHint,
      Optional<Boolean> idempotentHint,
      Optional<Boolean> openWorldHint)
      implements McpJson {

    /** The wire form of a model's annotations; empty when it has none. */
    public static Optional<Annotations> of(ToolAnnotations model) {
      return model.isEmpty()
          ? Optional.empty()
          : Optional.of(
              new Annotations(
                  model.title(),
                  model.readOnly(),
                  model.destructive(),
                  model.idempotent(),
                  model.openWorld()));
    }

    public static Annotations fromJson(JsonNode json, String path) {
      McpWire.Fields annotations = McpWire.Fields.of(json, path);
      return new Annotations(
          annotations.optional("title", STRING),
          annotations.optional("readOnlyHint", BOOLEAN),
          annotations.optional("destructiveHint", BOOLEAN),
          annotations.optional("idempotentHint", BOOLEAN),
          annotations.optional("openWorldHint", BOOLEAN));
    }

    @Override
    public ObjectNode toJson() {
      ObjectNode out = McpWire.NODES.objectNode();
      McpWire.put(out, "title", title);
      readOnlyHint.ifPresent(v -> out.put("readOnlyHint", v));
      destructiveHint.ifPresent(v -> out.put("destructiveHint", v));
      idempotentHint.ifPresent(v -> out.put("idempotentHint", v));
      openWorldHint.ifPresent(v -> out.put("openWorldHint", v));
      return out;
    }
  }

  /**
   * MCP {@code Prompt}: a prompt as {@code prompts/list} shows it; svc always writes its {@code
   * arguments}, an empty list when it has none.
   */
  public record Prompt(Descriptor descriptor, List<PromptArgument> arguments) implements McpJson {
    public Prompt {
      arguments = List.copyOf(arguments);
    }

    public static Prompt fromJson(JsonNode json, String path) {
      McpWire.Fields prompt = McpWire.Fields.of(json, path);
      return new Prompt(
          Descriptor.read(prompt), prompt.list("arguments", PromptArgument::fromJson));
    }

    @Override
    public ObjectNode toJson() {
      ObjectNode out = descriptor.writeTo(McpWire.NODES.objectNode());
      out.set("arguments", McpWire.array(arguments, PromptArgument::toJson));
      return out;
    }
  }

  /** MCP {@code PromptArgument}; svc always writes {@code required} (false when absent). */
  public record PromptArgument(Descriptor descriptor, boolean required) implements McpJson {
    public static PromptArgument fromJson(JsonNode json, String path) {
      McpWire.Fields argument = McpWire.Fields.of(json, path);
      return new PromptArgument(
          Descriptor.read(argument), argument.optional("required", BOOLEAN).orElse(false));
    }

    @Override
    public ObjectNode toJson() {
      return descriptor.writeTo(McpWire.NODES.objectNode()).put("required", required);
    }
  }

  /**
   * MCP {@code Resource} or {@code ResourceTemplate}: a resource, or a template of resources, as
   * {@code resources/list} and {@code resources/templates/list} show them. The two have the same
   * fields but how they are found: a URI, or a URI template.
   */
  public record Resource(
      Locator locator, String address, Descriptor descriptor, Optional<String> mimeType)
      implements McpJson {

    /** How a listed resource is found: the key of its address. */
    public enum Locator {
      URI("uri"),
      URI_TEMPLATE("uriTemplate");

      private final String key;

      Locator(String key) {
        this.key = key;
      }

      Resource read(JsonNode json, String path) {
        McpWire.Fields resource = McpWire.Fields.of(json, path);
        return new Resource(
            this,
            resource.required(key, STRING),
            Descriptor.read(resource),
            resource.optional("mimeType", STRING));
      }
    }

    @Override
    public ObjectNode toJson() {
      ObjectNode out = McpWire.NODES.objectNode().put(locator.key, address);
      descriptor.writeTo(out);
      McpWire.put(out, "mimeType", mimeType);
      return out;
    }
  }
}
