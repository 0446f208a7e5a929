package dev.svc.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class JsonPathTest {
  static final JsonNode DOC =
      Json.MAPPER.readTree(
          "{\"items\":[{\"name\":\"kettle\",\"unit price\":54}],\"total\":1,\"a-b\":true}");

  @Test
  void membersIndexesAndQuotedNamesSelectOneValue() {
    assertThat(JsonPath.parse("$").select(DOC)).contains(DOC);
    assertThat(JsonPath.parse("$.total").select(DOC).orElseThrow().asInt()).isEqualTo(1);
    assertThat(JsonPath.parse("$.items[0].name").select(DOC).orElseThrow().asString())
        .isEqualTo("kettle");
    assertThat(JsonPath.parse("$.items[0]['unit price']").select(DOC).orElseThrow().asInt())
        .isEqualTo(54);
    assertThat(JsonPath.parse("$[\"a-b\"]").select(DOC).orElseThrow().asBoolean()).isTrue();
    assertThat(JsonPath.parse("$.a-b").select(DOC)).isPresent();
  }

  @Test
  void aQuotedNameMayHoldAClosingBracket() {
    JsonNode doc = Json.MAPPER.readTree("{\"a]b\":1,\"c\":{\"[x]\":2}}");

    assertThat(JsonPath.parse("$['a]b']").select(doc).orElseThrow().asInt()).isEqualTo(1);
    assertThat(JsonPath.parse("$.c[\"[x]\"]").select(doc).orElseThrow().asInt()).isEqualTo(2);
  }

  @Test
  void aPathThatLeadsNowhereSelectsNothing() {
    assertThat(JsonPath.parse("$.items[3]").select(DOC)).isEmpty();
    assertThat(JsonPath.parse("$.total.name").select(DOC)).isEmpty();
    assertThat(JsonPath.parse("$[0]").select(DOC)).isEmpty();
  }

  @Test
  void malformedPathsSayWhatIsWrongAndWhere() {
    assertThatThrownBy(() -> JsonPath.parse("items")).hasMessage("a JSON path starts with `$`");
    assertThatThrownBy(() -> JsonPath.parse("$.items[*]"))
        .hasMessage(
            "`[*]` at character 8 is neither an index nor a quoted name (wildcards and filters"
                + " are not supported)");
    assertThatThrownBy(() -> JsonPath.parse("$."))
        .hasMessage("expected a member name after `.` at character 3");
    assertThatThrownBy(() -> JsonPath.parse("$[0")).hasMessage("`[` at character 2 is not closed");
    assertThatThrownBy(() -> JsonPath.parse("$x"))
        .hasMessage("unexpected `x` at character 2; use `.name` or `[index]`");
  }
}
