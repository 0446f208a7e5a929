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
}
