package dev.svc.protocol.mcp;

import static dev.svc.protocol.mcp.McpWire.Kind.OBJECT;
import static dev.svc.protocol.mcp.McpWire.Kind.STRING;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * MCP {@code GetPromptResult}: the answer to {@code prompts/get}, the prompt's messages.
 *
 * @see <a
 *     href="https://modelcontextprotocol.io/specification/2025-11-25/server/prompts#getting-a-prompt">MCP
 *     getting a prompt</a>
 */
public record GetPromptResult(Optional<String> description, List<Message> messages)
    implements McpJson {

  public GetPromptResult {
    messages = List.copyOf(messages);
  }

  public static GetPromptResult fromJson(JsonNode json, String path) {
    McpWire.Fields result = McpWire.Fields.of(json, path);
    return new GetPromptResult(
        result.optional("description", STRING), result.list("messages", Message::fromJson));
  }

  @Override
  public ObjectNode toJson() {
    ObjectNode out = McpWire.NODES.objectNode();
    McpWire.put(out, "description", description);
    out.set("messages", McpWire.array(messages, Message::toJson));
    return out;
  }

  /** Who says a message: MCP prompt messages have only these two roles. */
  public enum Role {
    USER,
    ASSISTANT;

    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }

    static Role parse(String wireName, String path) {
      return Stream.of(values())
          .filter(role -> role.wireName().equals(wireName))
          .findFirst()
          .orElseThrow(() -> McpShapeException.invalid(path, "user or assistant"));
    }
  }

  /** MCP {@code PromptMessage}: one message, of one content item. */
  public record Message(Role role, Content content, Optional<ObjectNode> meta) implements McpJson {
    public static Message fromJson(JsonNode json, String path) {
      McpWire.Fields message = McpWire.Fields.of(json, path);
      return new Message(
          Role.parse(message.required("role", STRING), message.at("role")),
          message.nested("content", Content::fromJson),
          message.optional("_meta", OBJECT));
    }

    @Override
    public ObjectNode toJson() {
      ObjectNode out = McpWire.NODES.objectNode().put("role", role.wireName());
      out.set("content", content.toJson());
      McpWire.set(out, "_meta", meta);
      return out;
    }
  }
}
