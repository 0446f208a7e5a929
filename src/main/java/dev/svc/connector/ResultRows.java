package dev.svc.connector;

import dev.svc.json.JsonFootprint;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Builds a statement's result payload (docs/decisions.md "Results"): an array of row objects keyed
 * by column label in column order, or {@code [{"rows_affected": n}]} for a statement without rows.
 */
final class ResultRows {
  private ResultRows() {}

  /**
   * The rows of {@code window}: the first {@code skip} are stepped over without being read, then at
   * most {@code take} are read, each counted in {@code memory} as it is built; {@code next()} is
   * never called past the window, so a driver that streams fetches no further.
   *
   * @throws ResultRefusedException when {@code memory} has no room for a row
   */
  static ArrayNode read(
      ResultSet rows, SqlDialect dialect, StatementOptions window, ResultMemory.Account memory)
      throws SQLException {
    ResultSetMetaData meta = rows.getMetaData();
    String[] labels = dialect.columnLabels(rows, meta);
    int count = labels.length;
    ColumnKind[] kinds = new ColumnKind[count];
    for (int i = 0; i < count; i++) {
      kinds[i] = dialect.columnKind(meta, i + 1);
    }
    ArrayNode result = JsonValues.NODES.arrayNode();
    for (long skipped = 0; skipped < window.skip(); skipped++) {
      if (!rows.next()) {
        return result;
      }
      memory.rowRead();
    }
    long take = window.take();
    for (long taken = 0; taken < take && rows.next(); taken++) {
      ObjectNode row = JsonValues.NODES.objectNode();
      for (int i = 0; i < count; i++) {
        row.set(labels[i], kinds[i].read(rows, i + 1));
      }
      memory.rowRead();
      memory.add(JsonFootprint.of(row));
      result.add(row);
    }
    return result;
  }

  static ArrayNode rowsAffected(long count) {
    ArrayNode result = JsonValues.NODES.arrayNode(1);
    // drivers answer -1 for statements that report no count (DDL on some servers)
    result.add(JsonValues.NODES.objectNode().put("rows_affected", Math.max(0, count)));
    return result;
  }
}
