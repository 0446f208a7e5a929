package dev.svc.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class LoneSurrogatesTest {
  @Test
  void aLoneHalfBecomesTheReplacementCharacterAndPairsStay() {
    assertThat(LoneSurrogates.wellFormed("a\uDE6Cb")).isEqualTo("a\uFFFDb");
    assertThat(LoneSurrogates.wellFormed("x\uD82D")).isEqualTo("x\uFFFD");
    assertThat(LoneSurrogates.wellFormed("\uDC00\uD800")).isEqualTo("\uFFFD\uFFFD");
    assertThat(LoneSurrogates.wellFormed("\uD83D\uDE00 \uD83D")).isEqualTo("\uD83D\uDE00 \uFFFD");
    String plain = "plain 😀";
    assertThat(LoneSurrogates.wellFormed(plain)).isSameAs(plain);
  }

  @Test
  void valuesAtAnyDepthAreMendedInPlace() {
    // Jackson refuses a lone surrogate in a key when it parses; in a value it reads it
    String json = "{\"a\":\"\\uDE6C\",\"k\":[1,{\"b\":\"ok\\uDBFF\"}],\"z\":\"\\uD83D\\uDE00\"}";
    JsonNode tree = LoneSurrogates.mended(Json.MAPPER.readTree(json), json);
    assertThat(Json.MAPPER.writeValueAsString(tree))
        .isEqualTo("{\"a\":\"\uFFFD\",\"k\":[1,{\"b\":\"ok\uFFFD\"}],\"z\":\"😀\"}");
  }

  @Test
  void keysOfATreeBuiltElsewhereAreMendedAndKeepTheirOrder() {
    ObjectNode object = Json.NODES.objectNode();
    object.put("first", 1);
    object.put("\uDC00k", "v\uD800");
    object.put("last", 3);
    assertThat(Json.MAPPER.writeValueAsString(LoneSurrogates.mended(object)))
        .isEqualTo("{\"first\":1,\"\uFFFDk\":\"v\uFFFD\",\"last\":3}");
  }

  @Test
  void textThatCannotHoldOneIsNotWalked() {
    assertThat(LoneSurrogates.mayHold("{\"a\":\"\\u00e9 é 😀\"}".getBytes(StandardCharsets.UTF_8)))
        .isFalse();
    assertThat(LoneSurrogates.mayHold("{\"a\":\"\\uDE6C\"}".getBytes(StandardCharsets.UTF_8)))
        .isTrue();
    assertThat(LoneSurrogates.mayHold("{\"a\":\"\\ud83d\\ude00\"}")).isTrue();
    assertThat(LoneSurrogates.mayHold(new byte[] {'"', (byte) 0xED, (byte) 0xB9, (byte) 0xAC}))
        .isTrue();
    assertThat(LoneSurrogates.mayHold("{\"a\":\"é\"}")).isFalse();
  }
}
