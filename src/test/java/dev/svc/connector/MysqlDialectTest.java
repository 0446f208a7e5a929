package dev.svc.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.model.ConnectorKind;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MysqlDialectTest {

  private static JdbcSettings settings(String connectionString, Map<String, String> options) {
    return MysqlDialect.INSTANCE.settings(
        new ResolvedAdapter("db", ConnectorKind.MYSQL, connectionString, options, Path.of(".")));
  }

  @Test
  void aFullDsnBecomesAJdbcUrlAndConnectorJProperties() {
    JdbcSettings settings =
        settings(
            "app:p@ss:w@tcp(db.example:3307)/shop?charset=utf8mb4,utf8&parseTime=true"
                + "&loc=Europe%2FParis&timeout=5s&readTimeout=500ms&writeTimeout=1m"
                + "&collation=utf8mb4_unicode_ci&tls=skip-verify",
            Map.of());

    assertThat(settings.url()).isEqualTo("jdbc:mysql://db.example:3307/shop");
    assertThat(settings.properties())
        .containsEntry("user", "app")
        .containsEntry("password", "p@ss:w")
        .containsEntry("characterEncoding", "UTF-8")
        .containsEntry("connectTimeout", "5000")
        .containsEntry("socketTimeout", "500")
        .containsEntry("connectionTimeZone", "Europe/Paris")
        .containsEntry("connectionCollation", "utf8mb4_unicode_ci")
        .containsEntry("sslMode", "REQUIRED")
        .containsEntry("useServerPrepStmts", "true")
        .containsEntry("emulateUnsupportedPstmts", "false")
        .containsEntry("cachePrepStmts", "true")
        .containsEntry("prepStmtCacheSize", "32")
        .containsEntry("prepStmtCacheSqlLimit", "8192")
        .doesNotContainKeys("charset", "parseTime", "writeTimeout", "loc", "timeout", "tls");
    assertThat(settings.location()).isEqualTo("db.example:3307");
    assertThat(settings.connectTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(settings.poolSize()).isEqualTo(MysqlDialect.DEFAULT_POOL_SIZE);
    assertThat(settings.toString()).doesNotContain("p@ss");
  }

  @Test
  void aPercentEncodedPasswordIsDecoded() {
    assertThat(settings("app:p%40ss%3Aw@tcp(h:3306)/d", Map.of()).properties())
        .containsEntry("password", "p@ss:w");
  }

  @Test
  void theCharsetOptionSetsTheCharacterSetAndOptionsWin() {
    JdbcSettings settings =
        settings(
            "u:p@tcp(h:3306)/d?charset=latin1",
            Map.of("charset", "utf8mb4", "max_connections", "2", "useSSL", "false"));

    assertThat(settings.properties())
        .containsEntry("characterEncoding", "UTF-8")
        .containsEntry("useSSL", "false")
        .doesNotContainKey("max_connections");
    assertThat(settings.poolSize()).isEqualTo(2);
    assertThat(settings("u:p@tcp(h:3306)/d", Map.of("charset", "latin1")).properties())
        .containsEntry("characterEncoding", "Cp1252");
  }

  @Test
  void mysqlCharsetNamesBecomeJavaEncodings() {
    assertThat(MysqlDialect.javaEncoding("utf8")).isEqualTo("UTF-8");
    assertThat(MysqlDialect.javaEncoding("sjis")).isEqualTo("SJIS");
    assertThat(MysqlDialect.javaEncoding("UTF-16")).isEqualTo("UTF-16");
  }

  @Test
  void theUrlFormIsAcceptedToo() {
    JdbcSettings settings = settings("mysql://app:p%40ss@h:3307/shop?timeout=2s", Map.of());

    assertThat(settings.url()).isEqualTo("jdbc:mysql://h:3307/shop");
    assertThat(settings.properties())
        .containsEntry("user", "app")
        .containsEntry("password", "p@ss")
        .containsEntry("connectTimeout", "2000");
  }

  @Test
  void addressesDefaultToLocalhostAnd3306() {
    assertThat(settings("u@/d", Map.of()).url()).isEqualTo("jdbc:mysql://localhost:3306/d");
    assertThat(settings("u:p@tcp(h)/d", Map.of()).url()).isEqualTo("jdbc:mysql://h:3306/d");
    assertThat(settings("u:p@tcp([::1]:3307)/d", Map.of()).url())
        .isEqualTo("jdbc:mysql://[::1]:3307/d");
    assertThat(settings("u:p@tcp(h:3306)/", Map.of()).url()).isEqualTo("jdbc:mysql://h:3306/");
  }

  @Test
  void unixSocketsAndMalformedDsnsAreExplained() {
    assertThatThrownBy(() -> settings("u:secret@unix(/tmp/mysql.sock)/d", Map.of()))
        .isInstanceOf(ConnectorUnavailableException.class)
        .hasMessage(
            "mysql adapter `db` names a unix socket, which svc cannot use: write"
                + " tcp(<host>:<port>)");
    assertThatThrownBy(() -> settings("u:secret@udp(h:1)/d", Map.of()))
        .hasMessage(
            "the connection string of mysql adapter `db` is not in DSN form"
                + " <user>:<password>@tcp(<host>:<port>)/<database>")
        .hasMessageNotContaining("secret");
    assertThatThrownBy(() -> settings("u:secret@tcp(h:1", Map.of()))
        .hasMessageContaining("is not in DSN form");
  }

  @Test
  void badParameterValuesAreExplained() {
    assertThatThrownBy(() -> settings("u@tcp(h)/d?readTimeout=later", Map.of()))
        .hasMessage("`readTimeout` of adapter `db` is not a duration: write e.g. 5s, 500ms or 1m");
    assertThatThrownBy(() -> settings("u@tcp(h)/d?tls=custom", Map.of()))
        .hasMessage(
            "tls=`custom` of mysql adapter `db` is not supported: use true, skip-verify,"
                + " preferred or false");
  }

  @Test
  void cancellationsAreRecognised() {
    assertThat(MysqlDialect.INSTANCE.isCancellation(new java.sql.SQLTimeoutException("t")))
        .isTrue();
    assertThat(MysqlDialect.INSTANCE.isCancellation(new SQLException("x", "70100", 1317))).isTrue();
    assertThat(MysqlDialect.INSTANCE.isCancellation(new SQLException("x", "42S02", 1146)))
        .isFalse();
  }
}
