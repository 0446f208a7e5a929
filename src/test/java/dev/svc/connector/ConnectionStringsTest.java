package dev.svc.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ConnectionStringsTest {

  @Test
  void percentDecodingKeepsPlusSignsAndStrayPercentSigns() {
    assertThat(ConnectionStrings.percentDecode("p%40ss%2Fw%3Ard")).isEqualTo("p@ss/w:rd");
    assertThat(ConnectionStrings.percentDecode("a+b")).isEqualTo("a+b");
    assertThat(ConnectionStrings.percentDecode("100%")).isEqualTo("100%");
    assertThat(ConnectionStrings.percentDecode("%zz")).isEqualTo("%zz");
    assertThat(ConnectionStrings.percentDecode("caf%C3%A9")).isEqualTo("café");
    assertThat(ConnectionStrings.percentDecode("naïve%21")).isEqualTo("naïve!");
  }

  @Test
  void queryParametersAreDecodedAndTheLastRepeatWins() {
    assertThat(ConnectionStrings.query("a=1&b=x%2Fy&&c&a=2"))
        .containsExactly(Map.entry("a", "2"), Map.entry("b", "x/y"), Map.entry("c", ""));
  }

  @Test
  void goDurationsParse() {
    assertThat(ConnectionStrings.duration("5s")).contains(Duration.ofSeconds(5));
    assertThat(ConnectionStrings.duration("500ms")).contains(Duration.ofMillis(500));
    assertThat(ConnectionStrings.duration("1m")).contains(Duration.ofMinutes(1));
    assertThat(ConnectionStrings.duration("1m30s")).contains(Duration.ofSeconds(90));
    assertThat(ConnectionStrings.duration("1.5h")).contains(Duration.ofMinutes(90));
    assertThat(ConnectionStrings.duration("250us")).contains(Duration.ofNanos(250_000));
    assertThat(ConnectionStrings.duration("10")).contains(Duration.ofSeconds(10));
  }

  @Test
  void malformedDurationsAreRejected() {
    assertThat(ConnectionStrings.duration("5x")).isEqualTo(Optional.empty());
    assertThat(ConnectionStrings.duration("")).isEmpty();
    assertThat(ConnectionStrings.duration("s")).isEmpty();
    assertThat(ConnectionStrings.duration("5s junk")).isEmpty();
    assertThatThrownBy(() -> ConnectionStrings.millis("db", "timeout", "soon"))
        .isInstanceOf(ConnectorUnavailableException.class)
        .hasMessage("`timeout` of adapter `db` is not a duration: write e.g. 5s, 500ms or 1m");
  }

  @Test
  void poolSizeComesFromMaxConnectionsOrTheDefault() {
    assertThat(ConnectionStrings.poolSize("db", Map.of(), 8)).isEqualTo(8);
    assertThat(ConnectionStrings.poolSize("db", Map.of("max_connections", " 3 "), 8)).isEqualTo(3);
  }

  @Test
  void anImpossiblePoolSizeIsExplained() {
    for (String bad : new String[] {"0", "-1", "many", "201"}) {
      assertThatThrownBy(() -> ConnectionStrings.poolSize("db", Map.of("max_connections", bad), 8))
          .isInstanceOf(ConnectorUnavailableException.class)
          .hasMessage(
              "option max_connections of adapter `db` must be a whole number from 1 to 200");
    }
  }

  @Test
  void hostsAndPortsSplitIncludingIpv6() {
    assertThat(ConnectionStrings.hostPort("db.example:6543", 5432, "db").toString())
        .isEqualTo("db.example:6543");
    assertThat(ConnectionStrings.hostPort("db.example", 5432, "db").port()).isEqualTo(5432);
    assertThat(ConnectionStrings.hostPort("", 5432, "db").toString()).isEqualTo("localhost:5432");
    assertThat(ConnectionStrings.hostPort("[::1]:6000", 5432, "db").toString())
        .isEqualTo("[::1]:6000");
    assertThat(ConnectionStrings.hostPort("[::1]", 5432, "db").toString()).isEqualTo("[::1]:5432");
    assertThatThrownBy(() -> ConnectionStrings.hostPort("db:99999", 5432, "db"))
        .hasMessage("the connection string of adapter `db` has an invalid port `99999`");
  }

  @Test
  void aHostOrPortThatIsPartOfThePasswordIsNotQuoted() {
    // the @ is missing, or an unencoded ? ends the part read as user, password and host
    for (String afterScheme :
        new String[] {
          "app:Sup3rS3cret127.0.0.1/db", "app:Sup3r?S3cret@h/db", "app:Sup3r:5432?x@h/db"
        }) {
      assertThatThrownBy(() -> ConnectionStrings.url(afterScheme, 5432, "db"))
          .isInstanceOf(ConnectorUnavailableException.class)
          .hasMessage(
              "the connection string of adapter `db` has a host or port that cannot be read (not"
                  + " quoted: it may hold the password); check that an @ ends the user and"
                  + " password, and percent-encode a ? or # in the password (%3F, %23)");
    }
  }

  @Test
  void urlsSplitIntoDecodedParts() {
    ConnectionStrings.UrlParts url =
        ConnectionStrings.url("al%20ice:p%40ss@h1:1,h2/my%20db?x=1", 5432, "db");

    assertThat(url.user()).contains("al ice");
    assertThat(url.password()).contains("p@ss");
    assertThat(url.hostList()).isEqualTo("h1:1,h2:5432");
    assertThat(url.database()).isEqualTo("my db");
    assertThat(url.query()).containsExactly(Map.entry("x", "1"));
    assertThat(url.toString()).doesNotContain("p@ss");
  }

  @Test
  void anUnencodedAtSignOrSlashInThePasswordStillParses() {
    ConnectionStrings.UrlParts url = ConnectionStrings.url("u:p@s/s@host:5/db", 5432, "db");

    assertThat(url.password()).contains("p@s/s");
    assertThat(url.hostList()).isEqualTo("host:5");
    assertThat(url.database()).isEqualTo("db");
  }
}
