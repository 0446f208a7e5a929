package dev.svc.connector;

import dev.svc.model.Statement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The parameters a database could not give a type to, per statement text, learnt from its errors
 * and bound as text from then on: PostgreSQL cannot type an untyped string or NULL in {@code {{
 * inputs.city }} IS NULL} (docs/decisions.md "Placeholders"). The texts are the project's
 * statements, so what is learnt stays small. One per connector.
 */
final class UntypedParameters {
  private final SqlDialect dialect;
  private final Map<String, Set<Integer>> learnt = new ConcurrentHashMap<>();

  /** Whether anything was learnt: most connectors never learn anything, and skip the lookup. */
  private volatile boolean anyLearnt;

  UntypedParameters(SqlDialect dialect) {
    this.dialect = dialect;
  }

  /** The parameters (1-based) of {@code sql} to bind as text. */
  Set<Integer> of(Statement.Sql sql) {
    if (!anyLearnt) {
      return Set.of();
    }
    Set<Integer> known = learnt.get(sql.sql());
    return known == null ? Set.of() : Set.copyOf(known);
  }

  /** Binds {@code values} to {@code prepared}, the parameters learnt so far as text. */
  void bind(PreparedStatement prepared, Statement.Sql sql, Map<String, Object> values)
      throws SQLException {
    ParameterBinder.bind(prepared, sql.parameters(), values, dialect, of(sql));
  }

  /**
   * Executes the statement {@link #bind} bound. When the database could not give a parameter a
   * type, binds that parameter as text, remembers to for this statement, and executes again: once
   * per parameter at most. Inside a transaction (a read-only statement's), which the failure
   * aborted, it rolls back first, so the retry begins a new one.
   *
   * @return what {@link PreparedStatement#execute()} returned
   */
  boolean execute(PreparedStatement prepared, Statement.Sql sql, Map<String, Object> values)
      throws SQLException {
    Set<Integer> asText = of(sql);
    while (true) {
      try {
        return prepared.execute();
      } catch (SQLException e) {
        OptionalInt untyped = dialect.untypedParameter(e);
        if (untyped.isEmpty()
            || untyped.getAsInt() < 1
            || untyped.getAsInt() > sql.parameters().size()
            || asText.contains(untyped.getAsInt())
            || Thread.currentThread().isInterrupted()) {
          throw e;
        }
        learnt
            .computeIfAbsent(sql.sql(), k -> ConcurrentHashMap.newKeySet())
            .add(untyped.getAsInt());
        anyLearnt = true;
        asText = of(sql);
        Connection connection = prepared.getConnection();
        if (!connection.getAutoCommit()) {
          connection.rollback();
        }
        ParameterBinder.bind(prepared, sql.parameters(), values, dialect, asText);
      }
    }
  }
}
