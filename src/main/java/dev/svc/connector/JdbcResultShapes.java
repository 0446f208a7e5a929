package dev.svc.connector;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** A statement's {@link ResultShape} as a JDBC driver describes it before it runs. */
final class JdbcResultShapes {
  private JdbcResultShapes() {}

  /**
   * Rows of the described columns (each column's JSON types as {@code dialect} maps its SQL type,
   * nullable unless the driver says never), or rows affected for a statement without a result set.
   */
  static ResultShape of(ResultSetMetaData meta, SqlDialect dialect) throws SQLException {
    int count = dialect.columnCount(meta);
    if (count == 0) {
      return new ResultShape.RowsAffected();
    }
    List<ResultShape.Column> columns = new ArrayList<>();
    for (int i = 1; i <= count; i++) {
      List<String> types = dialect.columnKind(meta, i).jsonTypes(dialect.nonFiniteNumbers());
      boolean nullable = types.isEmpty() || meta.isNullable(i) != ResultSetMetaData.columnNoNulls;
      columns.add(new ResultShape.Column(meta.getColumnLabel(i), types, nullable));
    }
    return new ResultShape.Rows(columns);
  }
}
