package dev.svc.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.model.ConnectorKind;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LibsqlSettingsTest {
  private static LibsqlSettings parse(String connectionString, Map<String, String> options) {
    return LibsqlSettings.of(
        new ResolvedAdapter("edge", ConnectorKind.SQLITE, connectionString, options, Path.of(".")));
  }

  @Test
  void libsqlMeansHttpsAndTheTokenBecomesABearerToken() {
    LibsqlSettings settings = parse("libsql://db-org.turso.io", Map.of("authToken", "t0k"));

    assertThat(settings.base()).isEqualTo("https://db-org.turso.io");
    assertThat(settings.token()).contains("t0k");
    assertThat(settings.pipelineUri(3)).hasToString("https://db-org.turso.io/v3/pipeline");
    assertThat(settings.versionUri(2)).hasToString("https://db-org.turso.io/v2");
    assertThat(settings.toString()).doesNotContain("t0k");
  }

  @Test
  void everyTokenSpellingWorksAndAuthTokenComesFirst() {
    assertThat(parse("https://h", Map.of("auth_token", "a")).token()).contains("a");
    assertThat(parse("https://h", Map.of("jwt", "j")).token()).contains("j");
    assertThat(parse("https://h?jwt=j", Map.of("authToken", "a")).token()).contains("a");
    assertThat(parse("https://h?authToken=q", Map.of()).token()).contains("q");
    assertThat(parse("https://h?authToken=q", Map.of()).query()).isEmpty();
  }

  @Test
  void otherOptionsAreAppendedAsQueryParametersUnchanged() {
    Map<String, String> options = new LinkedHashMap<>();
    options.put("sync_interval", "5s");
    options.put("readYourWrites", "true");
    options.put("seed", "seed.sql"); // local files only

    LibsqlSettings settings = parse("http://127.0.0.1:8080/db/?mode=x", options);

    assertThat(settings.base()).isEqualTo("http://127.0.0.1:8080/db");
    assertThat(settings.pipelineUri(2))
        .hasToString(
            "http://127.0.0.1:8080/db/v2/pipeline?mode=x&sync_interval=5s&readYourWrites=true");
  }

  @Test
  void theTlsSwitchNeedsAnExplicitPort() {
    assertThat(parse("libsql://127.0.0.1:8080", Map.of("tls", "0")).base())
        .isEqualTo("http://127.0.0.1:8080");
    assertThat(parse("http://h:8443?tls=1", Map.of()).base()).isEqualTo("https://h:8443");
    assertThatThrownBy(() -> parse("libsql://db.turso.io", Map.of("tls", "0")))
        .isInstanceOf(ConnectorUnavailableException.class)
        .hasMessageStartingWith(
            "option tls of sqlite adapter `edge` is valid only with an explicit port");
    assertThatThrownBy(() -> parse("libsql://h:1", Map.of("tls", "yes")))
        .hasMessage("option tls of sqlite adapter `edge` must be 1 (TLS) or 0 (no TLS)");
  }

  @Test
  void badStringsAndOptionsAreExplained() {
    assertThatThrownBy(() -> parse("libsql://", Map.of()))
        .hasMessage("the connection string of sqlite adapter `edge` names no host");
    assertThatThrownBy(() -> parse("https://user:secret@h", Map.of()))
        .hasMessage(
            "the connection string of sqlite adapter `edge` holds credentials before the host;"
                + " pass the token as the authToken option");
    assertThatThrownBy(() -> parse("https://h", Map.of("sync_interval", "soon")))
        .hasMessage(
            "option sync_interval of sqlite adapter `edge` is not a duration: write e.g. 5s, 500ms"
                + " or 1m");
    assertThatThrownBy(() -> parse("https://h:99999", Map.of()))
        .hasMessageContaining("invalid port");
  }
}
