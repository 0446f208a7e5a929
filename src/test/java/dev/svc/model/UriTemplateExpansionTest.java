package dev.svc.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** RFC 6570 expansion of string values (the RFC's section 3.2 examples), and back by matching. */
class UriTemplateExpansionTest {
  static final Map<String, String> VALUES =
      Map.of(
          "var", "value",
          "hello", "Hello World!",
          "path", "/foo/bar",
          "x", "1024",
          "y", "768",
          "empty", "");

  static String expand(String template) {
    return UriTemplate.parse(template).expand(VALUES);
  }

  @Test
  void everyOperatorExpandsAsTheRfcSays() {
    assertThat(expand("{var}")).isEqualTo("value");
    assertThat(expand("{hello}")).isEqualTo("Hello%20World%21");
    assertThat(expand("{+hello}")).isEqualTo("Hello%20World!");
    assertThat(expand("{+path}/here")).isEqualTo("/foo/bar/here");
    assertThat(expand("X{#var}")).isEqualTo("X#value");
    assertThat(expand("map?{x,y}")).isEqualTo("map?1024,768");
    assertThat(expand("X{.x,y}")).isEqualTo("X.1024.768");
    assertThat(expand("{/var,x}/here")).isEqualTo("/value/1024/here");
    assertThat(expand("{;x,y,empty}")).isEqualTo(";x=1024;y=768;empty");
    assertThat(expand("{?x,y,empty}")).isEqualTo("?x=1024&y=768&empty=");
    assertThat(expand("?fixed=yes{&x}")).isEqualTo("?fixed=yes&x=1024");
    assertThat(expand("{var:3}")).isEqualTo("val");
  }

  @Test
  void aVariableWithoutAValueIsLeftOut() {
    assertThat(expand("{?x,undef}")).isEqualTo("?x=1024");
    assertThat(expand("a{/undef}b")).isEqualTo("ab");
  }

  @Test
  void anExpandedUriMatchesItsTemplateWithTheSameValues() {
    UriTemplate template = UriTemplate.parse("shop://products/{id}/notes{?lang}");
    String uri = template.expand(Map.of("id", "a b/c", "lang", "de"));

    assertThat(uri).isEqualTo("shop://products/a%20b%2Fc/notes?lang=de");
    assertThat(template.match(uri)).contains(Map.of("id", "a b/c", "lang", "de"));
  }

  @Test
  void aNearMissThatWouldBacktrackForLongIsRefusedInsteadOfMatchedForMinutes() {
    // two adjacent variables: a URI of "a." repeated backtracks with the square of its length
    // (128 KB took 20 s of CPU); now the match has a budget of steps
    UriTemplate template = UriTemplate.parse("ext://files/{name}.{ext}");
    assertThat(template.match("ext://files/report.csv"))
        .contains(java.util.Map.of("name", "report", "ext", "csv"));
    String nearMiss = "ext://files/" + "a.".repeat(64_000) + "/";
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> template.match(nearMiss))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("takes too long to match the template ext://files/{name}.{ext}");
    // a long URI that is an expansion still matches
    String longName = "b".repeat(1_000_000);
    assertThat(template.match("ext://files/" + longName + ".txt")).isPresent();
  }
}
