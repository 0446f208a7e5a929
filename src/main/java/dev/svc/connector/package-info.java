/**
 * Connectors: one implementation per wire protocol behind the small {@link
 * dev.svc.connector.Connector} interface, picked by the one exhaustive switch in {@link
 * dev.svc.connector.Connectors}. Values are always bound, never spliced.
 *
 * <p>{@link dev.svc.connector.JdbcConnector} serves PostgreSQL, MySQL/MariaDB and local SQLite: a
 * {@code SqlDialect} per kind translates the connection string and options and maps column types;
 * {@code JdbcPool} is our own small fixed pool with a prepared-statement cache per connection.
 *
 * <p>{@link dev.svc.connector.MongoConnector} runs commands through the official MongoDB driver
 * ({@code MongoFailures} classifies the driver's exceptions, as a pure function), {@link
 * dev.svc.connector.RedisConnector} sends command lines through Jedis over RESP3, and {@link
 * dev.svc.connector.LibsqlConnector} is our own Hrana-over-HTTP client for remote libSQL. Their
 * failures are worded by {@code NetworkFailures} in the same plain words as the JDBC ones.
 *
 * <p>Every connector reads no further than the call's window ({@link
 * dev.svc.connector.StatementOptions}) and counts the rows it keeps in the call's {@link
 * dev.svc.connector.ResultMemory} (a ceiling per result, a budget for every call in flight), which
 * stops a result too big for the heap with a {@link dev.svc.connector.ResultRefusedException}.
 */
package dev.svc.connector;
