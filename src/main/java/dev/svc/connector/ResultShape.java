package dev.svc.connector;

import java.util.List;

/**
 * What a statement returns, as its database describes it before running it: rows of these columns,
 * or (a statement without a result set, such as an INSERT) the count of rows affected. The runtime
 * turns it into the tool's MCP output schema.
 */
public sealed interface ResultShape {

  /** {@code [{"rows_affected": n}]}. */
  record RowsAffected() implements ResultShape {}

  /** Rows of these columns, in column order. */
  record Rows(List<Column> columns) implements ResultShape {
    public Rows {
      columns = List.copyOf(columns);
    }
  }

  /**
   * One column of the result.
   *
   * @param label the key of the column in each row object
   * @param jsonTypes the JSON Schema types its values can have besides {@code null}; empty when any
   *     JSON value can stand there (a JSON column, SQLite's per-value typing)
   * @param nullable false only when the database says the column is never NULL
   */
  record Column(String label, List<String> jsonTypes, boolean nullable) {
    public Column {
      jsonTypes = List.copyOf(jsonTypes);
    }
  }
}
