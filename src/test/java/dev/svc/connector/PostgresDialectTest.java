package dev.svc.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.model.ConnectorKind;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

class PostgresDialectTest {

  private static JdbcSettings settings(String connectionString, Map<String, String> options) {
    return PostgresDialect.INSTANCE.settings(
        new ResolvedAdapter("db", ConnectorKind.POSTGRES, connectionString, options, Path.of(".")));
  }

  @Test
  void aFullUrlBecomesAJdbcUrlAndProperties() {
    JdbcSettings settings =
        settings(
            "postgresql://app:p%40ss%2Fw@db.example:6543/shop?sslmode=require&connect_timeout=7"
                + "&application_name=tools",
            Map.of());

    assertThat(settings.url()).isEqualTo("jdbc:postgresql://db.example:6543/shop");
    assertThat(settings.properties())
        .containsEntry("user", "app")
        .containsEntry("password", "p@ss/w")
        .containsEntry("sslmode", "require")
        .containsEntry("connectTimeout", "7")
        .containsEntry("loginTimeout", "7")
        .containsEntry("ApplicationName", "tools")
        .doesNotContainKeys("connect_timeout", "application_name");
    assertThat(settings.location()).isEqualTo("db.example:6543");
    assertThat(settings.user()).contains("app");
    assertThat(settings.connectTimeout()).isEqualTo(Duration.ofSeconds(7));
    assertThat(settings.poolSize()).isEqualTo(PostgresDialect.DEFAULT_POOL_SIZE);
    assertThat(settings.toString()).doesNotContain("p@ss");
  }

  @Test
  void onlyQueriesAreReadThroughACursor() {
    assertThat(PostgresDialect.isQuery("SELECT 1")).isTrue();
    assertThat(PostgresDialect.isQuery("  -- numbers\n /* all */ (select g from t)")).isTrue();
    assertThat(PostgresDialect.isQuery("WITH x AS (SELECT 1) SELECT * FROM x")).isTrue();
    assertThat(PostgresDialect.isQuery("values (1)")).isTrue();
    assertThat(PostgresDialect.isQuery("TABLE items")).isTrue();
    assertThat(PostgresDialect.isQuery("INSERT INTO t VALUES (1) RETURNING *")).isFalse();
    assertThat(PostgresDialect.isQuery("VACUUM items")).isFalse();
    assertThat(PostgresDialect.isQuery("SELECTED")).isFalse();
    assertThat(PostgresDialect.isQuery("")).isFalse();
  }

  @Test
  void theShortSchemeAndDefaultsWork() {
    JdbcSettings settings = settings("postgres://localhost/shop", Map.of());

    assertThat(settings.url()).isEqualTo("jdbc:postgresql://localhost:5432/shop");
    assertThat(settings.properties())
        .containsEntry("ApplicationName", "svc")
        .containsEntry("connectTimeout", "10")
        .containsEntry("stringtype", "unspecified")
        .containsEntry("tcpKeepAlive", "true")
        .containsEntry("maxResultBuffer", Long.toString(ResultMemory.process().ceilingBytes()))
        .doesNotContainKeys("user", "password");
    assertThat(settings.user()).isEmpty();
  }

  @Test
  void optionsWinOverQueryParametersAndUnknownOnesReachTheDriver() {
    JdbcSettings settings =
        settings(
            "postgresql://u@h/d?sslmode=disable&application_name=a",
            Map.of(
                "sslmode", "verify-full",
                "application_name", "b",
                "max_connections", "3",
                "currentSchema", "shop"));

    assertThat(settings.properties())
        .containsEntry("sslmode", "verify-full")
        .containsEntry("ApplicationName", "b")
        .containsEntry("currentSchema", "shop")
        .doesNotContainKey("max_connections");
    assertThat(settings.poolSize()).isEqualTo(3);
  }

  @Test
  void readOnlyToolsKeepPgjdbcsReadOnlyTransactionsWhateverTheOptionsSay() {
    assertThat(settings("postgresql://u@h/d?readOnlyMode=ignore", Map.of()).properties())
        .containsEntry("readOnlyMode", "transaction");
    assertThat(settings("postgresql://u@h/d", Map.of("readOnlyMode", "always")).properties())
        .containsEntry("readOnlyMode", "always");
    assertThat(settings("postgresql://u@h/d", Map.of()).properties())
        .doesNotContainKey("readOnlyMode");
  }

  @Test
  void severalHostsAndIpv6AreKept() {
    assertThat(settings("postgresql://u@h1:5433,h2/d", Map.of()).url())
        .isEqualTo("jdbc:postgresql://h1:5433,h2:5432/d");
    assertThat(settings("postgresql://u@[::1]:5433/d", Map.of()).url())
        .isEqualTo("jdbc:postgresql://[::1]:5433/d");
  }

  @Test
  void targetSessionAttrsBecomeServerTypes() {
    assertThat(settings("postgresql://h/d?target_session_attrs=read-write", Map.of()).properties())
        .containsEntry("targetServerType", "primary");
    assertThat(
            settings("postgresql://h/d?target_session_attrs=prefer-standby", Map.of()).properties())
        .containsEntry("targetServerType", "preferSecondary");
  }

  @Test
  void aDatabaseNameWithSpacesIsEncodedForTheDriver() {
    assertThat(settings("postgresql://h/my%20db", Map.of()).url())
        .isEqualTo("jdbc:postgresql://h:5432/my+db");
  }

  @Test
  void aWrongSchemeIsExplainedWithoutTheString() {
    assertThatThrownBy(() -> settings("mysql://u:secret@h/d", Map.of()))
        .isInstanceOf(ConnectorUnavailableException.class)
        .hasMessage(
            "the connection string of postgres adapter `db` must start with postgresql:// or"
                + " postgres://");
  }

  @Test
  void aConnectTimeoutMustBeSeconds() {
    assertThatThrownBy(() -> settings("postgresql://h/d", Map.of("connect_timeout", "5s")))
        .hasMessage("option connect_timeout of adapter `db` must be a whole number of seconds");
  }

  @Test
  void theServersPrimaryMessageIsTheOneLine() {
    PSQLException e =
        new PSQLException(
            new ServerErrorMessage("SERROR\0C42P01\0Mrelation \"itemz\" does not exist\0P15\0"));

    assertThat(PostgresDialect.INSTANCE.message(e)).isEqualTo("relation \"itemz\" does not exist");
    assertThat(PostgresDialect.INSTANCE.message(new SQLException("first\nsecond")))
        .isEqualTo("first");
  }

  @Test
  void sqlStatesClassifyLostConnectionsAndCancels() {
    assertThat(PostgresDialect.INSTANCE.isConnectionLost(new SQLException("x", "08006"))).isTrue();
    assertThat(PostgresDialect.INSTANCE.isConnectionLost(new SQLException("x", "57P01"))).isTrue();
    assertThat(PostgresDialect.INSTANCE.isConnectionLost(new SQLException("x", "42P01"))).isFalse();
    assertThat(PostgresDialect.INSTANCE.isCancellation(new SQLException("x", "57014"))).isTrue();
  }
}
