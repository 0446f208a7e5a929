package dev.svc.connector;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class JdbcFailuresTest {
  private static final JdbcSettings SETTINGS =
      new JdbcSettings(
          "jdbc:postgresql://127.0.0.1:5433/d",
          Map.of("password", "secret"),
          8,
          "127.0.0.1:5433",
          Optional.of("x"),
          false,
          Duration.ofSeconds(5));

  private static String reason(Throwable failure) {
    return JdbcFailures.reason(PostgresDialect.INSTANCE, SETTINGS, failure);
  }

  private static SQLException wrapping(Throwable cause) {
    return new SQLException("The connection attempt failed.", "08001", cause);
  }

  @Test
  void networkCausesAreNamedInPlainWords() {
    assertThat(reason(wrapping(new ConnectException("Connection refused"))))
        .isEqualTo("connection refused");
    assertThat(reason(wrapping(new UnknownHostException("db.invalid: Name or service not known"))))
        .isEqualTo("unknown host `db.invalid`");
    assertThat(reason(wrapping(new SocketTimeoutException("connect timed out"))))
        .isEqualTo("timed out after 5 s");
    assertThat(reason(wrapping(new ConnectException("Connection timed out"))))
        .isEqualTo("timed out after 5 s");
    assertThat(reason(wrapping(new ConnectException("Network is unreachable"))))
        .isEqualTo("network is unreachable");
    assertThat(reason(new SQLException("Connection attempt timed out.", "08001")))
        .isEqualTo("timed out after 5 s");
  }

  @Test
  void authenticationFailuresNameTheUser() {
    assertThat(
            reason(
                new SQLException("FATAL: password authentication failed for user \"x\"", "28P01")))
        .isEqualTo("authentication failed for user `x`");
    assertThat(reason(new SQLException("role \"x\" does not exist", "28000")))
        .isEqualTo("authentication failed for user `x` (role \"x\" does not exist)");
  }

  @Test
  void otherDatabaseErrorsKeepTheirOwnMessage() {
    assertThat(reason(new SQLException("database \"d\" does not exist\n  detail", "3D000")))
        .isEqualTo("database \"d\" does not exist");
    assertThat(reason(new IllegalStateException("odd"))).isEqualTo("odd");
  }

  @Test
  void theFullMessageNamesAdapterAndLocationButNoSecret() {
    String message =
        JdbcFailures.cannotConnect(
            PostgresDialect.INSTANCE,
            SETTINGS,
            "postgres adapter `db`",
            wrapping(new ConnectException("Connection refused")));

    assertThat(message)
        .isEqualTo("cannot connect to postgres adapter `db` at 127.0.0.1:5433: connection refused");
    assertThat(
            JdbcFailures.cannotConnectPrefix(
                SqliteDialect.INSTANCE, SETTINGS, "sqlite adapter `db`"))
        .startsWith("cannot open sqlite adapter `db`");
  }

  @Test
  void durationsReadAsPeopleWriteThem() {
    assertThat(JdbcFailures.words(Duration.ofSeconds(30))).isEqualTo("30 s");
    assertThat(JdbcFailures.words(Duration.ofMillis(500))).isEqualTo("500 ms");
    assertThat(JdbcFailures.words(Duration.ofMillis(1500))).isEqualTo("1.5 s");
    assertThat(JdbcFailures.words(Duration.ofMinutes(2))).isEqualTo("2 min");
    assertThat(JdbcFailures.statementTimedOut(Duration.ofSeconds(30)))
        .isEqualTo("the statement ran longer than 30 s and was cancelled");
  }
}
