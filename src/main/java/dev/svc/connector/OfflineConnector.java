package dev.svc.connector;

import dev.svc.call.Deadline;
import dev.svc.model.Statement;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * A connector that never connects: used by the start-up training run of {@code svc build}, which
 * loads the serving code paths without database credentials. Every statement fails.
 */
public final class OfflineConnector implements Connector {
  private final String adapter;

  public OfflineConnector(ResolvedAdapter adapter) {
    this.adapter = adapter.name();
  }

  @Override
  public void check(Deadline deadline) {}

  @Override
  public JsonNode execute(
      Statement statement,
      Map<String, Object> values,
      Deadline deadline,
      StatementOptions options) {
    throw new ConnectorUnavailableException("adapter `" + adapter + "` is offline (training run)");
  }

  @Override
  public void close() {}
}
