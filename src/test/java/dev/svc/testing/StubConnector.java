package dev.svc.testing;

import dev.svc.call.Deadline;
import dev.svc.connector.Connector;
import dev.svc.connector.StatementFailedException;
import dev.svc.model.Statement;
import dev.svc.runtime.Json;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;

/**
 * A connector for tests that need tools but no database: answers every statement with one row
 * echoing the bound values plus {@code "forecast": "sunny"}; a value {@code "fail"} makes the
 * statement fail as a database would reject it. Counts executions.
 */
public final class StubConnector implements Connector {
  private final AtomicInteger executions = new AtomicInteger();

  @Override
  public void check(Deadline deadline) {}

  @Override
  public JsonNode execute(Statement statement, Map<String, Object> values, Deadline deadline) {
    executions.incrementAndGet();
    if (values.containsValue("fail")) {
      throw new StatementFailedException("no such table: weather", false, null);
    }
    ArrayNode rows = Json.NODES.arrayNode();
    var row = rows.addObject();
    values.forEach((k, v) -> row.put(k, String.valueOf(v)));
    row.put("forecast", "sunny");
    return rows;
  }

  public int executions() {
    return executions.get();
  }

  @Override
  public void close() {}
}
