package dev.svc.connector;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * What opening JDBC connections for one adapter needs, translated from its connection string and
 * options. Holds the password: never log it; {@link #toString()} leaves the properties out.
 *
 * @param url the JDBC URL, without credentials
 * @param properties driver properties, including {@code user} and {@code password}
 * @param poolSize how many connections the pool holds
 * @param location where the database is ({@code host:port}, a file path), for messages
 * @param user the user name, for messages such as "authentication failed for user `x`"
 * @param anchored whether one extra connection keeps the database alive while the pool's come and
 *     go (a SQLite in-memory database vanishes with its last connection)
 * @param connectTimeout how long opening a connection may take (zero: no network, no limit)
 */
record JdbcSettings(
    String url,
    Map<String, String> properties,
    int poolSize,
    String location,
    Optional<String> user,
    boolean anchored,
    Duration connectTimeout) {

  JdbcSettings {
    properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
  }

  /** The properties as the driver takes them. */
  Properties driverProperties() {
    Properties driver = new Properties();
    driver.putAll(properties);
    return driver;
  }

  @Override
  public String toString() {
    return url + " (pool of " + poolSize + ")";
  }
}
