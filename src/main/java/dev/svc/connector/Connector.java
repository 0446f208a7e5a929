package dev.svc.connector;

import dev.svc.call.Deadline;
import dev.svc.model.Statement;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * An open connection (pool) to one adapter's database. Implementations are prefixed by technology
 * ({@code JdbcConnector}, {@code MongoConnector}, …) and picked by one exhaustive switch in {@link
 * Connectors}.
 *
 * <p>Thread-safe: many calls run at once, each on its own virtual thread.
 */
public interface Connector extends AutoCloseable {

  /**
   * Proves the database is reachable with the configured credentials (start-up check), by {@code
   * deadline}.
   *
   * @throws ConnectorUnavailableException naming the cause: bad host, credentials, time-out
   */
  void check(Deadline deadline);

  /**
   * Runs a compiled statement with its placeholders bound to {@code values}.
   *
   * @param values input name → value: {@code null}, {@code String}, {@code Long}, {@code Double},
   *     {@code java.math.BigDecimal}, {@code Boolean}, {@code java.time.OffsetDateTime}, {@code
   *     java.time.LocalDate}, or a {@link JsonNode} for structured values; every input the
   *     statement names is present (the caller checks)
   * @param deadline when the statement is cancelled: the call's, which earlier stages of the call
   *     (auth, an input transform) have used some of; waiting for a connection counts against it
   * @param options which rows the call wants, and whether writes must be refused
   * @return the result payload (see docs/decisions.md "Results")
   * @throws StatementFailedException when the database rejects the statement (a tool error the
   *     caller can fix) or it times out
   * @throws ConnectorUnavailableException when the database cannot be reached (a server fault)
   */
  JsonNode execute(
      Statement statement, Map<String, Object> values, Deadline deadline, StatementOptions options);

  /** {@link #execute(Statement, Map, Deadline, StatementOptions)} for every row, as written. */
  default JsonNode execute(Statement statement, Map<String, Object> values, Deadline deadline) {
    return execute(statement, values, deadline, StatementOptions.ALL);
  }

  /**
   * Describes what {@code statement} returns without running it (the database prepares it and
   * reports its result columns), by {@code deadline}. Empty when the connector cannot tell (the
   * default: MongoDB, Redis).
   *
   * @param samples a value of each input's declared type, standing in for real values so that the
   *     database can type the parameters (as {@link #execute} binds them); may lack inputs, and
   *     then no parameter is bound
   * @throws StatementFailedException when the database rejects the statement
   * @throws ConnectorUnavailableException when the database cannot be reached
   */
  default Optional<ResultShape> describe(
      Statement statement, Map<String, Object> samples, Deadline deadline) {
    return Optional.empty();
  }

  /** The usage of the connector's own pool, when it has one that svc manages (JDBC). */
  default Optional<PoolUsage> pool() {
    return Optional.empty();
  }

  /** Closes every connection; calls in flight may fail. Never throws. */
  @Override
  void close();
}
