package dev.svc.call;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HeadersTest {
  private final Headers headers =
      Headers.of(
          "Host", "example.test",
          "X-Forwarded-For", "10.0.0.1",
          "Cookie", "secret=1",
          "x-forwarded-for", "10.0.0.2",
          "Accept", "application/json");

  @Test
  void namesMatchInAnyCaseAndTheFirstValueSentWins() {
    assertThat(headers.first("host")).contains("example.test");
    assertThat(headers.first("HOST")).contains("example.test");
    assertThat(headers.first("X-FORWARDED-FOR")).contains("10.0.0.1");
    assertThat(headers.first("origin")).isEmpty();
    assertThat(Headers.NONE.first("host")).isEqualTo(Optional.empty());
  }

  @Test
  void valuesAreGroupedByLowerCaseNameInArrivalOrder() {
    assertThat(headers.values())
        .containsExactly(
            Map.entry("accept", List.of("application/json")),
            Map.entry("cookie", List.of("secret=1")),
            Map.entry("host", List.of("example.test")),
            Map.entry("x-forwarded-for", List.of("10.0.0.1", "10.0.0.2")));
  }

  @Test
  void allValuesOfOneNameComeInArrivalOrder() {
    assertThat(headers.all("X-Forwarded-For")).containsExactly("10.0.0.1", "10.0.0.2");
    assertThat(headers.all("host")).containsExactly("example.test");
    assertThat(headers.all("authorization")).isEmpty();
    assertThatThrownBy(() -> headers.all("host").add("other"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void scriptsSeeEveryHeaderButCookiesWithRepeatedValuesJoined() {
    assertThat(headers.forScripts())
        .containsExactly(
            Map.entry("accept", "application/json"),
            Map.entry("host", "example.test"),
            Map.entry("x-forwarded-for", "10.0.0.1, 10.0.0.2"));
  }

  @Test
  void aBuilderTakesMoreHeadersThanExpectedAndNoneAfterBuilding() {
    Headers.Builder builder = new Headers.Builder(1);
    builder.add("A", "1").add("B", "2").add("C", "3");
    Headers built = builder.build();

    assertThat(built.first("c")).contains("3");
    assertThat(built).isEqualTo(Headers.of("a", "1", "b", "2", "c", "3"));
    assertThatThrownBy(() -> builder.add("D", "4")).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void withoutDropsEveryValueOfANameInAnyCaseAndKeepsTheRestInOrder() {
    Headers sent =
        Headers.of("Authorization", "Bearer a", "X-A", "1", "authorization", "x", "X-B", "2");

    Headers kept = sent.without("AUTHORIZATION");

    assertThat(kept).isEqualTo(Headers.of("x-a", "1", "x-b", "2"));
    assertThat(kept.all("authorization")).isEmpty();
    assertThat(kept.without("authorization")).isSameAs(kept);
  }
}
