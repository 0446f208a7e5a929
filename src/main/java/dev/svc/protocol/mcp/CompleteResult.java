package dev.svc.protocol.mcp;

import static dev.svc.protocol.mcp.McpWire.Kind.BOOLEAN;
import static dev.svc.protocol.mcp.McpWire.Kind.INTEGER;

import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * MCP {@code CompleteResult}: the answer to {@code completion/complete}, values that complete an
 * argument (at most 100).
 *
 * @param total how many values match in all, when known
 * @param hasMore whether there are more values than these
 * @see <a
 *     href="https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/completion">MCP
 *     completion</a>
 */
public record CompleteResult(List<String> values, Optional<Long> total, Optional<Boolean> hasMore)
    implements McpJson {

  public CompleteResult {
    values = List.copyOf(values);
  }

  /** Sent under {@code completion}. */
  @Override
  public ObjectNode toJson() {
    ObjectNode out = McpWire.NODES.objectNode();
    ObjectNode completion = out.putObject("completion");
    ArrayNode array = completion.putArray("values");
    values.forEach(array::add);
    total.ifPresent(t -> completion.put("total", t));
    hasMore.ifPresent(h -> completion.put("hasMore", h));
    return out;
  }

  public static CompleteResult fromJson(JsonNode json, String path) {
    McpWire.Fields completion =
        McpWire.Fields.of(json, path).nested("completion", McpWire.Fields::of);
    return new CompleteResult(
        completion.list("values", McpWire::string),
        completion.optional("total", INTEGER),
        completion.optional("hasMore", BOOLEAN));
  }
}
