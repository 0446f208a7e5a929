package dev.svc.suite;

import dev.svc.diagnostic.Origin;
import java.util.ArrayList;
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
    List<Expectation> expectations) {
  public ToolCase {
    headers = Map.copyOf(headers);
    expectations = List.copyOf(expectations);
  }

  /**
   * Every expectation {@code answer} does not satisfy, in the order the compiler lists them: {@code
   * result}, {@code rows_contain}, {@code row_count}, {@code json_path} (in the order written),
   * {@code error}, {@code truncated}.
   */
  public List<Mismatch> check(Answer answer) {
    List<Mismatch> mismatches = new ArrayList<>();
    for (Expectation expectation : expectations) {
      expectation.check(answer).ifPresent(mismatches::add);
    }
    return mismatches;
  }
}
