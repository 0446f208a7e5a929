package dev.svc.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.json.Json;
import dev.svc.model.ResultCaps;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;

class ResultCapperTest {
  /** {@code count} rows {@code {"n": i, "text": text}}. */
  private static ArrayNode rows(int count, String text) {
    ArrayNode rows = Json.NODES.arrayNode();
    for (int i = 0; i < count; i++) {
      rows.addObject().put("n", i).put("text", text);
    }
    return rows;
  }

  private static ResultCapper.Capped.Kept kept(JsonNode payload, ResultCaps caps) {
    ResultCapper.Capped capped = ResultCapper.cap(payload, caps);
    assertThat(capped).isInstanceOf(ResultCapper.Capped.Kept.class);
    return (ResultCapper.Capped.Kept) capped;
  }

  private static int utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8).length;
  }

  @Test
  void aListWithinTheCapsIsKeptWholeAndItsJsonIsWrittenOnceForTheResponse() {
    ArrayNode rows = rows(3, "plain");
    ResultCapper.Capped.Kept kept = kept(rows, ResultCaps.DEFAULTS);
    assertThat(kept.payload()).isSameAs(rows);
    assertThat(kept.cut()).isEmpty();
    assertThat(kept.json()).contains(Json.MAPPER.writeValueAsString(rows));
  }

  @Test
  void exactlyTheRowCapIsNotCutAndOneRowMoreIsCutToTheCap() {
    assertThat(kept(rows(5, "x"), new ResultCaps(5, 0)).cut()).isEmpty();
    assertThat(kept(rows(5, "x"), new ResultCaps(5, 1 << 20)).cut()).isEmpty();

    ResultCapper.Capped.Kept probed = kept(rows(6, "x"), new ResultCaps(5, 1 << 20));
    assertThat(probed.cut()).contains(Truncation.Limit.MAX_ROWS);
    assertThat(probed.payload().size()).isEqualTo(5);
    assertThat(probed.payload().get(4).path("n").asInt()).isEqualTo(4);
    assertThat(probed.json()).contains(Json.MAPPER.writeValueAsString(probed.payload()));
    assertThat(kept(rows(6, "x"), new ResultCaps(5, 0)).payload().size()).isEqualTo(5);
  }

  @Test
  void theByteCapKeepsWholeLeadingRowsCountingMultibyteTextInUtf8() {
    String text = "é€😀 naïve 東京"; // 2-, 3- and 4-byte characters
    ArrayNode rows = rows(10, text);
    String row = Json.MAPPER.writeValueAsString(rows.get(0));
    int rowBytes = utf8(row);
    assertThat(rowBytes).isGreaterThan(row.length()); // the cap counts bytes, not characters
    // room for exactly three rows: "[" + 3 rows + 2 commas + "]"
    long cap = 1 + 3L * rowBytes + 2 + 1;
    ResultCapper.Capped.Kept three = kept(rows, new ResultCaps(0, cap));
    assertThat(three.cut()).contains(Truncation.Limit.MAX_BYTES);
    assertThat(three.payload().size()).isEqualTo(3);
    assertThat(utf8(three.json().orElseThrow())).isEqualTo(cap);
    assertThat(Json.MAPPER.readTree(three.json().orElseThrow())).isEqualTo(three.payload());
    // one byte less and the third row no longer fits
    ResultCapper.Capped.Kept two = kept(rows, new ResultCaps(0, cap - 1));
    assertThat(two.payload().size()).isEqualTo(2);
    assertThat(Json.MAPPER.readTree(two.json().orElseThrow())).isEqualTo(two.payload());
  }

  @Test
  void theByteCapKeepsTheFirstRowWhenItAloneFits() {
    ArrayNode rows = rows(4, "ü".repeat(100));
    long justOne = utf8(Json.MAPPER.writeValueAsString(rows.get(0))) + 2;
    ResultCapper.Capped.Kept one = kept(rows, new ResultCaps(1000, justOne));
    assertThat(one.payload().size()).isEqualTo(1);
    assertThat(one.cut()).contains(Truncation.Limit.MAX_BYTES);
  }

  @Test
  void aFirstRowAloneOverTheByteCapIsRefusedSayingHowBigItIsAndWhichCap() {
    ArrayNode rows = rows(2, "x".repeat(200));
    int rowBytes = utf8(Json.MAPPER.writeValueAsString(rows.get(0)));
    assertThat(ResultCapper.cap(rows, new ResultCaps(10, 100)))
        .isEqualTo(
            new ResultCapper.Capped.TooLarge(
                "the first row alone is "
                    + rowBytes
                    + " bytes of JSON, over the tool's max_bytes of 100; ask for less, or raise"
                    + " max_bytes (in the tool's config.terse, or under tools in .svc; 0 removes"
                    + " the cap)"));
  }

  @Test
  void aNonListPayloadIsKeptWholeOrRefusedOverTheByteCap() {
    JsonNode object = Json.NODES.objectNode().put("text", "€".repeat(40)); // 120 bytes of text
    assertThat(kept(object, new ResultCaps(1, 1000)).cut()).isEmpty();
    assertThat(ResultCapper.cap(object, new ResultCaps(1, 100)))
        .isEqualTo(
            new ResultCapper.Capped.TooLarge(
                "the result is 131 bytes of JSON, over the tool's max_bytes of 100; ask for less,"
                    + " or raise max_bytes (in the tool's config.terse, or under tools in .svc; 0"
                    + " removes the cap)"));
  }

  @Test
  void zeroCapsKeepEverythingWithoutWritingIt() {
    ArrayNode rows = rows(5000, "x");
    ResultCapper.Capped.Kept kept = kept(rows, ResultCaps.NONE);
    assertThat(kept.payload()).isSameAs(rows);
    assertThat(kept.json()).isEmpty();
    assertThat(kept.cut()).isEmpty();
  }

  @Test
  void anEmptyListIsNeverCut() {
    assertThat(kept(Json.NODES.arrayNode(), new ResultCaps(1, 1)).cut())
        .isEqualTo(Optional.empty());
  }
}
