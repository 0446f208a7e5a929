package dev.svc.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.model.ConnectorKind;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Picking connectors opens nothing, so these run without any database. */
class ConnectorsTest {

  private static ResolvedAdapter adapter(ConnectorKind kind, String connectionString) {
    return new ResolvedAdapter("db", kind, connectionString, Map.of(), Path.of("."));
  }

  @Test
  void sqlKindsGetTheJdbcConnectorWithTheirDefaultPoolSizes() {
    try (Connector postgres =
            Connectors.open(adapter(ConnectorKind.POSTGRES, "postgresql://u@h/d"));
        Connector mysql = Connectors.open(adapter(ConnectorKind.MYSQL, "u:p@tcp(h:3306)/d"));
        Connector sqlite = Connectors.open(adapter(ConnectorKind.SQLITE, "file:./x.db"));
        Connector uri = Connectors.open(adapter(ConnectorKind.SQLITE, "file:///srv/x.db"))) {
      assertThat(((JdbcConnector) postgres).poolSize()).isEqualTo(8);
      assertThat(((JdbcConnector) mysql).poolSize()).isEqualTo(8);
      assertThat(((JdbcConnector) sqlite).poolSize()).isEqualTo(4);
      assertThat(((JdbcConnector) uri).poolSize()).isEqualTo(4);
      assertThat(postgres.toString()).isEqualTo("JdbcConnector(postgres adapter `db`, pool of 8)");
    }
  }

  @Test
  void mongodbAndRedisAreNotAvailableYet() {
    assertThatThrownBy(() -> Connectors.open(adapter(ConnectorKind.MONGODB, "mongodb://h/d")))
        .isInstanceOf(ConnectorUnavailableException.class)
        .hasMessage("the mongodb connector is not available yet");
    assertThatThrownBy(() -> Connectors.open(adapter(ConnectorKind.REDIS, "redis://h/0")))
        .isInstanceOf(ConnectorUnavailableException.class)
        .hasMessage("the redis connector is not available yet");
  }

  @Test
  void remoteSqliteIsNotAvailableYet() {
    for (String remote :
        new String[] {"libsql://db.example", "https://h", "http://127.0.0.1:8080"}) {
      assertThatThrownBy(() -> Connectors.open(adapter(ConnectorKind.SQLITE, remote)))
          .isInstanceOf(ConnectorUnavailableException.class)
          .hasMessage("sqlite adapter `db`: remote libSQL is not available yet");
    }
  }

  @Test
  void websocketSchemesAreUnsupported() {
    assertThatThrownBy(() -> Connectors.open(adapter(ConnectorKind.SQLITE, "wss://h")))
        .isInstanceOf(ConnectorUnavailableException.class)
        .hasMessage(
            "sqlite adapter `db` uses the unsupported scheme `wss://`; use libsql://, https:// or"
                + " http:// for a remote database");
    assertThatThrownBy(() -> Connectors.open(adapter(ConnectorKind.SQLITE, "ws://h")))
        .hasMessageContaining("unsupported scheme `ws://`");
  }
}
