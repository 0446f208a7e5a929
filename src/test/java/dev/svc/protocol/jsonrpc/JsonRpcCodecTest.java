package dev.svc.protocol.jsonrpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class JsonRpcCodecTest {
  private static String parseError(String body) {
    JsonRpcCodec.Parsed parsed = JsonRpcCodec.parse(body.getBytes(StandardCharsets.UTF_8));
    assertThat(parsed).isInstanceOf(JsonRpcCodec.Invalid.class);
    JsonRpcError error = ((JsonRpcCodec.Invalid) parsed).error();
    assertThat(error.code()).isEqualTo(-32700);
    return error.message();
  }

  @Test
  void aBodyCutShortNamesWhereItEndedAndWhatWasOpen() {
    assertThat(parseError("{\"jsonrpc\":\"2.0\",\"id\":1,"))
        .isEqualTo(
            "Parse error at line 1, column 25: Unexpected end-of-input within/between Object entries");
  }

  @Test
  void aStrayCharacterNamesItsLineAndColumn() {
    assertThat(parseError("{\"jsonrpc\": \"2.0\",\n \"id\": 1,, \"method\": \"ping\"}"))
        .isEqualTo(
            "Parse error at line 2, column 10: Unexpected character (',' (code 44)): was expecting double-quote to start property name");
  }

  @Test
  void anUnclosedArraySaysWhatIsMissingWithoutJacksonInternals() {
    assertThat(parseError("{\"jsonrpc\": \"2.0\", \"params\": [1, 2"))
        .isEqualTo(
            "Parse error at line 1, column 35: Unexpected end-of-input: expected close marker for Array");
  }

  @Test
  void aBareWordIsNotJson() {
    assertThat(parseError("{\"jsonrpc\": tru}"))
        .isEqualTo(
            "Parse error at line 1, column 13: Unrecognized token 'tru': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')");
  }

  @Test
  void anUnterminatedStringSaysSo() {
    assertThat(parseError("{\"jsonrpc\": \"2.0"))
        .isEqualTo("Parse error at line 1, column 17: Unexpected end-of-input inside a string");
  }

  @Test
  void trailingGarbageAfterTheObjectIsAParseError() {
    assertThat(parseError("{\"jsonrpc\": \"2.0\"} x"))
        .isEqualTo(
            "Parse error at line 1, column 20: Unrecognized token 'x': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')");
  }

  @Test
  void aNumberBeyondADoublesRangeIsAParseErrorWhereverItIs() {
    String expected =
        "Parse error: a number is out of range: svc reads JSON numbers as 64-bit floating point,"
            + " at most ±1.7976931348623157e308";
    assertThat(
            parseError("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\",\"params\":{\"a\":1e400}}"))
        .isEqualTo(expected);
    assertThat(
            parseError(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\",\"params\":{\"a\":[{\"b\":-1e999999999}]}}"))
        .isEqualTo(expected);
  }

  @Test
  void theLargestDoubleAndNumbersTooSmallToTellFromZeroAreRead() {
    JsonRpcCodec.Parsed parsed =
        JsonRpcCodec.parse(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\",\"params\":{\"a\":1.7976931348623157e308,\"b\":1e-400}}"
                .getBytes(StandardCharsets.UTF_8));
    assertThat(parsed)
        .isInstanceOfSatisfying(
            JsonRpcCodec.Message.class,
            message -> {
              JsonRpcMessage.Request request = (JsonRpcMessage.Request) message.message();
              assertThat(request.params().path("a").asDouble()).isEqualTo(Double.MAX_VALUE);
              assertThat(request.params().path("b").asDouble()).isZero();
            });
  }

  @Test
  void aPropertyNamedTwiceIsAParseError() {
    assertThat(
            parseError(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"a\",\"name\":\"b\"}}"))
        .isEqualTo("Parse error at line 1, column 74: Duplicate Object property \"name\"");
  }

  /**
   * A second value after the object, and the reader's limits (a number of more than 1,000 digits,
   * nesting deeper than 500, a property name of more than 50,000 characters), are said without
   * Jackson's class and setting names: before, the client read {@code (bound as
   * `tools.jackson.databind.JsonNode`): not allowed as per
   * `DeserializationFeature.FAIL_ON_TRAILING_TOKENS`} and {@code from
   * `StreamReadConstraints.getMaxNumberLength()`}.
   */
  @Test
  void aSecondValueAndTheReadersLimitsAreSaidWithoutJacksonNames() {
    assertThat(parseError("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"} {\"x\":1}"))
        .isEqualTo(
            "Parse error at line 1, column 42: another JSON value follows the request; send one"
                + " JSON-RPC object per request");
    assertThat(parseError("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"} [1]"))
        .startsWith("Parse error at line 1, column 42: another JSON value follows the request");
    assertThat(parseError("{\"id\":" + "9".repeat(1001) + "}"))
        .isEqualTo("Parse error: Number value length (1001) exceeds the maximum allowed (1000)");
    assertThat(parseError("{\"a\":" + "[".repeat(10_000) + "]".repeat(10_000) + "}"))
        .isEqualTo("Parse error: Document nesting depth (501) exceeds the maximum allowed (500)");
    assertThat(parseError("{\"" + "a".repeat(50_001) + "\":1}"))
        .isEqualTo("Parse error: Name length (50001) exceeds the maximum allowed (50000)");
  }

  /**
   * What JSON does not allow is said as such, not as a setting of Jackson's to enable (which a
   * client cannot, and which named Jackson's classes).
   */
  @Test
  void whatJsonDoesNotAllowIsNotAJacksonSettingToEnable() {
    assertThat(parseError("{\"a\":NaN}"))
        .isEqualTo("Parse error at line 1, column 9: Non-standard token 'NaN'");
    assertThat(parseError("{\"a\":+1}"))
        .isEqualTo(
            "Parse error at line 1, column 7: Unexpected character ('+' (code 43)) in numeric"
                + " value: JSON spec does not allow numbers to have plus signs");
    assertThat(parseError("{\"a\":0x10}"))
        .isEqualTo(
            "Parse error at line 1, column 7: Unexpected character ('x' (code 120)): JSON has no"
                + " hexadecimal numbers");
    assertThat(parseError("/*c*/{}"))
        .isEqualTo(
            "Parse error at line 1, column 1: Unexpected character ('/' (code 47)): maybe a"
                + " (non-standard) comment? JSON has no comments");
    for (String body :
        new String[] {
          "{\"a\":Infinity}", "{\"a\":-Infinity}", "{\"a\":1}//x", "{} {}", "{}[", "{\"a\":'x'}"
        }) {
      assertThat(parseError(body)).doesNotContain("`", "Feature", "jackson", "JsonToken");
    }
  }
}
