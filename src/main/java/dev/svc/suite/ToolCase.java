package dev.svc.suite;

import dev.svc.diagnostic.Origin;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One call of a tool and what it must answer.
 *
 * @param origin where the case's name is written
 * @param arguments the call's arguments, as an MCP client sends them
 * @param headers the caller's HTTP headers
 * @param claims the claims of the access token the caller carries, as if verified already
 */
public record ToolCase(
    String name,
    Origin origin,
    JsonNode arguments,
    Map<String, String> headers,
    Optional<ObjectNode> claims,
    List<Expectation> expectations)
    implements TestCase {
  public ToolCase {
    headers = Map.copyOf(headers);
    expectations = List.copyOf(expectations);
  }
}
