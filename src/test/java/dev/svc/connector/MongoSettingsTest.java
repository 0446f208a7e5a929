package dev.svc.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.MongoClientSettings;
import dev.svc.model.ConnectorKind;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class MongoSettingsTest {
  private static MongoSettings parse(String connectionString, Map<String, String> options) {
    return MongoSettings.of(
        new ResolvedAdapter("crm", ConnectorKind.MONGODB, connectionString, options, Path.of(".")));
  }

  @Test
  void theFourDocumentedOptionsReachTheDriver() {
    MongoClientSettings client =
        parse(
                "mongodb://u:p@h1:27017,h2:27018/crm",
                Map.of(
                    "maxPoolSize", "50",
                    "minPoolSize", "5",
                    "connectTimeoutMS", "3000",
                    "serverSelectionTimeoutMS", "4000"))
            .client();

    assertThat(client.getConnectionPoolSettings().getMaxSize()).isEqualTo(50);
    assertThat(client.getConnectionPoolSettings().getMinSize()).isEqualTo(5);
    assertThat(client.getSocketSettings().getConnectTimeout(TimeUnit.MILLISECONDS)).isEqualTo(3000);
    assertThat(client.getClusterSettings().getServerSelectionTimeout(TimeUnit.MILLISECONDS))
        .isEqualTo(4000);
  }

  @Test
  void defaultsAreTheDriversExceptAShorterServerSelection() {
    MongoSettings settings = parse("mongodb://u:p@h/crm", Map.of());

    assertThat(settings.client().getConnectionPoolSettings().getMaxSize()).isEqualTo(100);
    assertThat(settings.client().getConnectionPoolSettings().getMinSize()).isZero();
    assertThat(settings.client().getSocketSettings().getConnectTimeout(TimeUnit.MILLISECONDS))
        .isEqualTo(10_000);
    assertThat(
            settings.client().getClusterSettings().getServerSelectionTimeout(TimeUnit.MILLISECONDS))
        .isEqualTo(10_000);
    assertThat(settings.client().getApplicationName()).isEqualTo("svc");
    assertThat(settings.location()).isEqualTo("h:27017");
    assertThat(settings.user()).contains("u");
    assertThat(settings.toString()).doesNotContain(":p");
  }

  @Test
  void anOptionWinsOverTheSameParameterInTheString() {
    MongoSettings settings = parse("mongodb://h/crm?maxPoolSize=7", Map.of("maxPoolSize", "9"));

    assertThat(settings.client().getConnectionPoolSettings().getMaxSize()).isEqualTo(9);
  }

  @Test
  void optionsAreAppendedAsQueryParameters() {
    Map<String, String> options = new LinkedHashMap<>();
    options.put("maxPoolSize", "2");
    options.put("appName", "my app");

    assertThat(MongoSettings.withOptions("mongodb://h", options))
        .isEqualTo("mongodb://h/?maxPoolSize=2&appName=my+app");
    assertThat(MongoSettings.withOptions("mongodb://u:p%2F@h/db", options))
        .isEqualTo("mongodb://u:p%2F@h/db?maxPoolSize=2&appName=my+app");
    assertThat(MongoSettings.withOptions("mongodb://h/db?tls=true", options))
        .isEqualTo("mongodb://h/db?tls=true&maxPoolSize=2&appName=my+app");
  }

  @Test
  void srvStringsAreAcceptedWithoutLookingThemUp() {
    MongoSettings settings = parse("mongodb+srv://u:p@cluster0.example.net/crm", Map.of());

    assertThat(settings.location()).isEqualTo("SRV cluster0.example.net");
  }

  @Test
  void badOptionsAndStringsAreExplained() {
    assertThatThrownBy(() -> parse("mongodb://h", Map.of("maxPoolSize", "0")))
        .isInstanceOf(ConnectorUnavailableException.class)
        .hasMessage(
            "option maxPoolSize of mongodb adapter `crm` must be a whole number of at least 1");
    assertThatThrownBy(() -> parse("mongodb://h", Map.of("maxPoolSize", "2", "minPoolSize", "3")))
        .hasMessage(
            "option minPoolSize of mongodb adapter `crm` (3) is larger than maxPoolSize (2)");
    assertThatThrownBy(() -> parse("postgresql://h", Map.of()))
        .hasMessage(
            "the connection string of mongodb adapter `crm` must start with mongodb:// or"
                + " mongodb+srv://");
    assertThatThrownBy(() -> parse("mongodb+srv://u:secret@h1,h2/crm", Map.of()))
        .hasMessageStartingWith("the connection string of mongodb adapter `crm` is invalid: ")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("secret"));
  }

  @Test
  void whatTheDriverQuotesFromTheStringIsLeftOut() {
    // the @ before the host is missing: the driver reads user, password and host as the host
    assertThatThrownBy(() -> parse("mongodb://app:Sup3rS3cret127.0.0.1:27017/crm", Map.of()))
        .hasMessageStartingWith(
            "the connection string of mongodb adapter `crm` is invalid: The connection string"
                + " contains an invalid host '…'. Reserved characters such as ':' must be"
                + " escaped");
    assertThat(
            MongoSettings.hidden(
                "Duplicated values for proxyPassword: Sup3rS3cret",
                "mongodb://h/?proxyPassword=a&proxyPassword=Sup3rS3cret"))
        .isEqualTo("Duplicated values for proxyPassword: …");
    assertThat(MongoSettings.hidden("Unsupported authMechanism: NOPE", "mongodb://h/?x=1"))
        .isEqualTo("Unsupported authMechanism: NOPE");
  }
}
