package dev.svc.suite;

import dev.svc.diagnostic.Origin;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * One call of a tool and what it must answer.
 *
 * @param origin where the case's name is written
 * @param arguments the call's arguments, as an MCP client sends them
 * @param headers the caller's HTTP headers
 */
public record ToolCase(
    String name,
    Origin origin,
    JsonNode arguments,
    Map<String, String> headers,
    List<Expectation> expectations)
    implements TestCase {
  public ToolCase {
    headers = Map.copyOf(headers);
    expectations = List.copyOf(expectations);
  }
}
