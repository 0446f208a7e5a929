package dev.svc.testing;

import dev.svc.call.Deadline;
import dev.svc.connector.Connector;
import dev.svc.connector.ConnectorUnavailableException;
import dev.svc.connector.StatementFailedException;
import dev.svc.connector.StatementOptions;
import dev.svc.json.Json;
import dev.svc.model.Statement;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;

/**
 * A connector for tests that need tools but no database: answers every statement with one row
 * echoing the bound values plus {@code "forecast": "sunny"}; a value {@code "fail"} makes the
 * statement fail as a database would reject it, {@code "slow"} as if it ran past its deadline, and
 * {@code "down"} as if the database could not be reached. Counts executions.
 */
public final class StubConnector implements Connector {
  private final AtomicInteger executions = new AtomicInteger();

  @Override
  public void check(Deadline deadline) {}

  @Override
  public JsonNode execute(
      Statement statement,
      Map<String, Object> values,
      Deadline deadline,
      StatementOptions options) {
    executions.incrementAndGet();
    if (values.containsValue("fail")) {
      throw new StatementFailedException("no such table: weather", false, null);
    }
    if (values.containsValue("slow")) {
      throw new StatementFailedException(
          "the statement ran longer than "
              + deadline.timeout().toSeconds()
              + " s and was cancelled",
          true,
          null);
    }
    if (values.containsValue("down")) {
      throw new ConnectorUnavailableException("cannot connect to the stub database");
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
