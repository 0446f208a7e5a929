/**
 * Connectors: one implementation per wire protocol behind the small {@link
 * dev.svc.connector.Connector} interface, picked by the one exhaustive switch in {@link
 * dev.svc.connector.Connectors}. Values are always bound, never spliced.
 *
 * <p>{@link dev.svc.connector.JdbcConnector} serves PostgreSQL, MySQL/MariaDB and local SQLite: a
 * {@code SqlDialect} per kind translates the connection string and options and maps column types;
 * {@code JdbcPool} is our own small fixed pool with a prepared-statement cache per connection.
 */
package dev.svc.connector;
